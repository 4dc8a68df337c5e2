import { generateText } from "ai";
import { openai } from "@ai-sdk/openai";
import { weatherTool } from "../tool/weather-tool";

export async function report(city: string) {
  return generateText({
    model: openai("gpt-4o"),
    prompt: `Write a weather report for ${city}`,
    tools: { getWeather: weatherTool },
  });
}
