// Guardrails whose tripwire a fixed rule decides: no model is asked for the verdict.
import { Agent, OutputGuardrail, defineInputGuardrail } from '@openai/agents';
import { z } from 'zod';

const CARD_NUMBER = /\b\d{13,16}\b/;

// A rule over the user's input.
const cardInInput = defineInputGuardrail({
  name: 'Card number in input',
  execute: async ({ input }) => {
    const text = typeof input === 'string' ? input : JSON.stringify(input);
    const found = CARD_NUMBER.test(text);
    return { outputInfo: { found }, tripwireTriggered: found };
  },
});

// A rule over the agent's answer: the rule decides, not a model's judgement of it.
const phoneInAnswer: OutputGuardrail = {
  name: 'Phone number in answer',
  async execute({ agentOutput }) {
    const hasPhoneNumber = String(agentOutput).includes('650');
    return { tripwireTriggered: hasPhoneNumber, outputInfo: 'phone number found' };
  },
};

export const refundAgent = new Agent({
  name: 'Refund agent',
  instructions: 'Help customers with refunds.',
  outputType: z.object({ response: z.string() }),
  inputGuardrails: [cardInInput],
  outputGuardrails: [
    phoneInAnswer,
    {
      name: 'Length limit',
      execute: async ({ agentOutput }) => ({
        outputInfo: null,
        tripwireTriggered: JSON.stringify(agentOutput).length > 4000,
      }),
    },
  ],
});
