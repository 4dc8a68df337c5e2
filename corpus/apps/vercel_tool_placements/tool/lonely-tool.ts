import { tool } from "ai";
import { z } from "zod";

export const lonelyTool = tool({
  description: "Echo the input",
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});
