// A chat model derived in one expression or several, or piped (LCEL), still decides refunds.
import { ChatAnthropic } from "@langchain/anthropic";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { RunnableSequence } from "@langchain/core/runnables";
import { ChatOpenAI } from "@langchain/openai";
import Stripe from "stripe";
import { z } from "zod";
import { triageChain } from "./chains";
import { lookupOrder } from "./tools";

const stripe = new Stripe(process.env.STRIPE_KEY ?? "");
const llm = new ChatOpenAI({ model: "gpt-4o", temperature: 0 });
const prompt = ChatPromptTemplate.fromMessages([["system", "Decide the refund."], ["user", "{ticket}"]]);
const verdictSchema = z.object({ refund: z.boolean(), reason: z.string() });

type Ticket = { text: string; chargeId: string };

export async function structuredInOneExpression(ticket: Ticket) {
  const judge = new ChatAnthropic({ model: "claude-sonnet-4-5" }).withStructuredOutput(verdictSchema, {
    name: "verdict",
  });
  const verdict = await judge.invoke(ticket.text);
  if (verdict.refund) { // EXPECT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
  }
}

export async function toolsBoundAndConfigured(ticket: Ticket) {
  const reply = await llm.bindTools([lookupOrder]).withConfig({ runName: "triage" }).invoke(ticket.text);
  if (reply.tool_calls?.length) { // EXPECT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
  }
}

export async function boundWithRetryAndFallbacks(ticket: Ticket) {
  const backup = new ChatAnthropic({ model: "claude-haiku-4-5" });
  const judge = llm
    .bind({ stop: ["\n"] })
    .withRetry({ stopAfterAttempt: 3 })
    .withFallbacks({ fallbacks: [backup] });
  const answer = await judge.invoke(ticket.text);
  if (answer.content === "REFUND") { // EXPECT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
  }
}

export async function pipedSequence(ticket: Ticket) {
  const chain = prompt.pipe(llm).pipe(new StringOutputParser());
  const answer = await chain.invoke({ ticket: ticket.text });
  if (answer.toLowerCase().includes("refund")) { // EXPECT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
  }
}

export async function pipedStructured(ticket: Ticket) {
  const chain = prompt.pipe(llm.withStructuredOutput(verdictSchema));
  const verdict = await chain.invoke({ ticket: ticket.text });
  if (verdict.refund) { // EXPECT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
  }
}

export async function pipedInAnotherModule(ticket: Ticket) {
  const answer = await triageChain.invoke({ ticket: ticket.text });
  if (answer.content === "yes") { // EXPECT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
  }
}

// Not followed yet (HIDDEN-AUTHORITY Limits): a sequence built from a list.
export async function sequenceFromList(ticket: Ticket) {
  const chain = RunnableSequence.from([prompt, llm, new StringOutputParser()]);
  const answer = await chain.invoke({ ticket: ticket.text });
  if (answer.includes("refund")) { // TODO-EXPECT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // TODO-EXPECT: UNGOVERNED-PATH
  }
}
