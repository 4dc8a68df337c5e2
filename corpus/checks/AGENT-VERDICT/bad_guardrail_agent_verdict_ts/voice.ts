// A guardrail function defined on its own and named by the guardrail object, guardrail lists
// bound to names, and a realtime session's output guardrail judged by a model.
import { Agent, run } from '@openai/agents';
import { RealtimeAgent, RealtimeOutputGuardrail, RealtimeSession } from '@openai/agents/realtime';

const judge = new Agent({ name: 'Judge', instructions: 'Answer "unsafe" or "safe".' });

async function screenRequest({ input }: { input: string }) {
  const result = await run(judge, input);
  return { outputInfo: result.finalOutput, tripwireTriggered: result.finalOutput === 'unsafe' }; // EXPECT: AGENT-VERDICT
}

const supportGuardrails = [{ name: 'Request screen', execute: screenRequest }];

export const supportAgent = new Agent({
  name: 'Support',
  instructions: 'Help callers.',
  inputGuardrails: supportGuardrails,
});

const spokenGuardrails: RealtimeOutputGuardrail[] = [
  {
    name: 'Spoken answer judge',
    async execute({ agentOutput }) {
      const verdict = await run(judge, agentOutput);
      return {
        tripwireTriggered: verdict.finalOutput !== 'safe', // EXPECT: AGENT-VERDICT
        outputInfo: verdict.finalOutput,
      };
    },
  },
];

const voiceAgent = new RealtimeAgent({ name: 'Voice', instructions: 'Talk to callers.' });
export const session = new RealtimeSession(voiceAgent, { outputGuardrails: spokenGuardrails });
