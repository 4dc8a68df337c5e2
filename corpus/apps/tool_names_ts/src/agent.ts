import { openai } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { lookupTool, refundTool } from './tools/refund';

export async function support(prompt: string) {
  return generateText({
    model: openai('gpt-4o-mini'),
    prompt,
    tools: { issue_refund: refundTool, find_order: lookupTool },
  });
}
