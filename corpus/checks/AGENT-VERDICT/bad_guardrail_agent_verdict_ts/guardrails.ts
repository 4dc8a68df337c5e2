// Guardrails whose tripwire is a guardrail agent's answer: a model decides what passes.
import { Agent, InputGuardrail, defineOutputGuardrail, run } from '@openai/agents';
import { z } from 'zod';

const fraudChecker = new Agent({
  name: 'Fraud checker',
  instructions: 'Decide whether this refund request is safe to process.',
  outputType: z.object({ isSafe: z.boolean(), reasoning: z.string() }),
});

// A guardrail object typed by the SDK, listed below by name.
const fraudGuardrail: InputGuardrail = {
  name: 'Fraud guardrail',
  runInParallel: false,
  execute: async ({ input, context }) => {
    const result = await run(fraudChecker, input, { context });
    return {
      outputInfo: result.finalOutput,
      tripwireTriggered: !result.finalOutput?.isSafe, // EXPECT: AGENT-VERDICT
    };
  },
};

// Built by the SDK's helper, with a method-shorthand execute.
const answerGuardrail = defineOutputGuardrail({
  name: 'Answer guardrail',
  async execute({ agentOutput, context }) {
    const check = await run(fraudChecker, agentOutput, { context });
    const unsafe = check.finalOutput?.isSafe === false;
    return { outputInfo: check.finalOutput, tripwireTriggered: unsafe }; // EXPECT: AGENT-VERDICT
  },
});

export const refundAgent = new Agent({
  name: 'Refund agent',
  instructions: 'Help customers with refunds.',
  inputGuardrails: [
    fraudGuardrail,
    {
      name: 'Chargeback guardrail',
      execute: async ({ input }) => {
        const result = await run(fraudChecker, input);
        return {
          tripwireTriggered: result.finalOutput?.isSafe !== true, // EXPECT: AGENT-VERDICT
          outputInfo: result.finalOutput,
        };
      },
    },
  ],
  outputGuardrails: [answerGuardrail],
});

// The same guardrail object listed by a second agent is one verdict, reported once.
export const escalationAgent = new Agent({
  name: 'Escalation agent',
  instructions: 'Escalate refund disputes.',
  inputGuardrails: [fraudGuardrail],
});
