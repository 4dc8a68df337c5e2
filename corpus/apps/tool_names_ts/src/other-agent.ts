import { openai } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { lookupTool } from './tools/refund';

export async function triage(prompt: string) {
  return generateText({ model: openai('gpt-4o-mini'), prompt, tools: { lookup_order: lookupTool } });
}
