import { generateText } from 'ai';
import { openai } from '@ai-sdk/openai';

export async function POST(req: Request) {
  const { text } = await req.json();
  return Response.json({ text: await rewrite(text) });
}

async function rewrite(text: string): Promise<string> {
  const result = await generateText({ model: openai('gpt-4o-mini'), prompt: `Rewrite: ${text}` });
  return result.text;
}
