import { generateText, tool, type ToolSet } from "ai";
import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { shellTool } from "../tool/shell-tool";
import { weatherTool } from "../tool/weather-tool";

function clockTools(): ToolSet {
  return {
    currentTime: tool({
      description: "The current time",
      inputSchema: z.object({}),
      execute: async () => new Date().toISOString(),
    }),
  };
}

export async function run(prompt: string) {
  return generateText({
    model: openai("gpt-4o"),
    prompt,
    tools: { ...clockTools(), shell: shellTool(), weather: weatherTool },
  });
}
