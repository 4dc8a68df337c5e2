import { generateText, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';

// A stub the demo never finished: the model can call it, nothing asks anyone first.
export const refundPayment = tool({
  description: 'Refund a payment',
  parameters: z.object({ paymentId: z.string(), cents: z.number() }),
  execute: async ({ paymentId, cents }) => {  // EXPECT: UNGOVERNED-PATH
    // TODO: call the payment provider
  },
});

export async function answer(prompt: string) {
  return generateText({ model: openai('gpt-4o'), prompt, tools: { refundPayment } });
}
