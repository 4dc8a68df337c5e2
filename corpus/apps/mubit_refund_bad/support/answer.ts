import { generateText, tool, wrapLanguageModel } from "ai";
import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { mubitMemoryMiddleware, MubitClient } from "@mubit-ai/ai-sdk";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const mubitClient = new MubitClient({ apiKey: process.env.MUBIT_API_KEY });

const issueRefund = tool({
  description: "Issue a refund for a verified charge",
  parameters: z.object({ chargeId: z.string(), amount: z.number() }),
  execute: async ({ chargeId, amount }) => stripe.refunds.create({ charge: chargeId, amount }),
});

export async function answer(sessionId: string, prompt: string) {
  const model = wrapLanguageModel({
    model: openai("gpt-4o-mini"),
    middleware: mubitMemoryMiddleware({ sessionId, agentId: "billing-bot", mubitClient }),
  });
  const { text } = await generateText({ model, tools: { issueRefund }, maxSteps: 3, prompt });
  await mubitClient.recordOutcome({ session_id: sessionId, reference_id: "global",
                                    outcome: "success", rationale: text });
  return text;
}
