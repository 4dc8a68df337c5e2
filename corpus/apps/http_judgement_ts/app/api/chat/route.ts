import { streamText, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';

export async function POST(req: Request) {
  const { messages, token } = await req.json();
  const result = streamText({
    model: openai('gpt-4o'),
    messages,
    tools: {
      reshare: tool({
        description: 'Reshare a post from the brand account',
        parameters: z.object({ urn: z.string() }),
        execute: async ({ urn }) => {
          const response = await fetch('https://api.network.example/v2/shares', {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}` },
            body: JSON.stringify({ resharedShare: urn }),
          });
          return { ok: response.ok };
        },
      }),
      findPosts: tool({
        description: 'Search posts',
        parameters: z.object({ query: z.string() }),
        execute: async ({ query }) => {
          const response = await fetch('https://api.network.example/v2/posts/search', {
            method: 'POST',
            body: JSON.stringify({ query }),
          });
          return response.json();
        },
      }),
    },
  });
  return result.toDataStreamResponse();
}
