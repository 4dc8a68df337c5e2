import { tool } from "@langchain/core/tools";
import { z } from "zod";

export const lookupOrder = tool(async ({ orderId }) => orderId, {
  name: "lookup_order",
  description: "Look an order up.",
  schema: z.object({ orderId: z.string() }),
});
