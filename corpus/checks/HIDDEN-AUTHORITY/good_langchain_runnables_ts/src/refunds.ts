// The same derived and piped runnables; their output never selects the refund, or no model
// runs in the pipe at all.
import { ChatAnthropic } from "@langchain/anthropic";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { ChatOpenAI } from "@langchain/openai";
import Stripe from "stripe";
import { z } from "zod";
import { renderTicket } from "./prompts";

const stripe = new Stripe(process.env.STRIPE_KEY ?? "");
const llm = new ChatOpenAI({ model: "gpt-4o", temperature: 0 });
const prompt = ChatPromptTemplate.fromMessages([["system", "Summarise."], ["user", "{ticket}"]]);
const summarySchema = z.object({ topic: z.string() });
const SMALL_REFUND = 20;

type Ticket = { id: string; text: string; chargeId: string; amount: number };

export async function structuredSummaryOnlyLogged(ticket: Ticket) {
  const judge = new ChatAnthropic({ model: "claude-sonnet-4-5" }).withStructuredOutput(summarySchema);
  const summary = await judge.invoke(ticket.text);
  console.log(`ticket ${ticket.id} is about ${summary.topic}`);
  if (ticket.amount < SMALL_REFUND) {
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH
  }
}

export async function configuredModelOutputReturned(ticket: Ticket) {
  const reply = await llm.withConfig({ runName: "summary" }).withRetry().invoke(ticket.text);
  if (ticket.amount < SMALL_REFUND) {
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH
  }
  return reply.content;
}

export async function templateAndParserWithoutAModel(ticket: Ticket) {
  const chain = prompt.pipe(new StringOutputParser());
  const rendered = await chain.invoke({ ticket: ticket.text });
  if (rendered.includes("refund")) { // EXPECT-NOT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH
  }
}

export async function templateRenderedInAnotherModule(ticket: Ticket) {
  const rendered = await renderTicket.invoke({ ticket: ticket.text });
  if (rendered.includes("refund")) { // EXPECT-NOT: HIDDEN-AUTHORITY
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH
  }
}
