// A realtime session's output guardrail that a fixed rule decides: no model judges the answer.
import { RealtimeAgent, RealtimeOutputGuardrail, RealtimeSession } from '@openai/agents/realtime';

const BANNED = ['password', 'card number'];

const guardrails: RealtimeOutputGuardrail[] = [
  {
    name: 'No secrets spoken',
    async execute({ agentOutput }) {
      const spoken = agentOutput.toLowerCase();
      const leaked = BANNED.some((word) => spoken.includes(word));
      return { tripwireTriggered: leaked, outputInfo: { leaked } };
    },
  },
];

const voiceAgent = new RealtimeAgent({ name: 'Voice', instructions: 'Talk to callers.' });
export const session = new RealtimeSession(voiceAgent, { outputGuardrails: guardrails });
