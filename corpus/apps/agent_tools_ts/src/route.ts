import { unlink } from 'node:fs/promises';
import { openai } from '@ai-sdk/openai';
import { streamText } from 'ai';
import { z } from 'zod';

export async function POST(req: Request) {
  const { messages } = await req.json();
  const result = streamText({
    model: openai('gpt-4o'),
    messages,
    tools: {
      deleteFile: {
        description: 'Delete a file',
        parameters: z.object({ path: z.string() }),
        execute: async ({ path }) => {
          await unlink(path);
          return 'deleted';
        },
      },
      askUser: {
        description: 'Ask the user; the client answers, nothing runs here',
        parameters: z.object({ question: z.string() }),
      },
    },
  });
  return result.toDataStreamResponse();
}
