import { openai } from '@ai-sdk/openai';
import { generateText, tool } from 'ai';
import { z } from 'zod';

const lookupWeather = tool({
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

export async function answer(prompt: string) {
  return generateText({
    model: openai('gpt-4o'),
    prompt,
    tools: {
      weather: lookupWeather,
      forecast: tool({
        description: 'Forecast for a city',
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => `rain in ${city}`,
      }),
    },
  });
}
