// The TypeScript twin: the prompt block is the system prompt of the call that holds the refund tool.
import { generateText, tool } from "ai";
import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import Stripe from "stripe";
import { MemexAI } from "@memexai/sdk";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function handleTurn(session: { userId: string }, message: string) {
  const memory = memex.forUser({ userId: session.userId, actor: "billing-assistant" });
  const system = await memory.getSystemPrompt("You are a billing assistant.");
  return generateText({
    model: openai("gpt-4.1-mini"),
    system,
    prompt: message,
    tools: {
      ...memory.createAgenticToolset(),
      refund: tool({
        description: "Refund a charge",
        parameters: z.object({ chargeId: z.string() }),
        execute: async ({ chargeId }) => stripe.refunds.create({ charge: chargeId }),  // EXPECT: ADVISORY-ONLY-POLICY, UNGOVERNED-PATH
      }),
    },
  });
}
