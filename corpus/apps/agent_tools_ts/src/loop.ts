import { openai } from '@ai-sdk/openai';
import { ToolLoopAgent, tool } from 'ai';
import { z } from 'zod';

// A tool set declared apart from the agent: the keys are the names the model sees.
const tools = {
  cityAttractions: tool({
    description: 'Attractions of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => [`museum of ${city}`],
  }),
};

const shared = tool({
  description: 'Placed under two keys: which name the model sees is not one answer',
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => q,
});

export const guide = new ToolLoopAgent({
  model: openai('gpt-4o'),
  tools: { ...tools, first: shared, second: shared },
});

export async function ask(prompt: string) {
  return guide.generate({ prompt });
}
