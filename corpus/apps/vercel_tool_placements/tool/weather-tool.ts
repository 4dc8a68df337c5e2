import { tool } from "ai";
import { z } from "zod";

export const weatherTool = tool({
  description: "Get the weather in a location",
  inputSchema: z.object({ location: z.string() }),
  execute: async ({ location }) => ({ location, temperature: 21 }),
});
