// A model scores a refund request; a confident score only queues the refund for a human,
// whose accept (an interrupt) routes to the refund.
import { Annotation, Command, END, START, StateGraph, interrupt } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import Stripe from "stripe";

const model = new ChatOpenAI({ model: "gpt-4o" });
const stripe = new Stripe(process.env.STRIPE_KEY ?? "");

const Ticket = Annotation.Root({
  text: Annotation<string>,
  chargeId: Annotation<string>,
  confidence: Annotation<number>,
});

async function assess(state: typeof Ticket.State) {
  const reply = await model.invoke(`How sure are you this refund is owed? JSON. ${state.text}`);
  return { confidence: JSON.parse(String(reply.content)).confidence };
}

function route(state: typeof Ticket.State) {
  if (state.confidence >= 0.8) { // EXPECT-NOT: HIDDEN-AUTHORITY
    return "review";
  }
  return "escalate";
}

async function review(state: typeof Ticket.State) {
  const answer = interrupt({ question: "Refund this charge?", charge: state.chargeId });
  if (answer.approved === true) {
    return new Command({ goto: "refund" });
  }
  return new Command({ goto: "escalate" });
}

async function refund(state: typeof Ticket.State) {
  await stripe.refunds.create({ charge: state.chargeId }); // EXPECT-NOT: UNGOVERNED-PATH
  return {};
}

async function escalate(state: typeof Ticket.State) {
  return {};
}

export const graph = new StateGraph(Ticket)
  .addNode("assess", assess)
  .addNode("review", review, { ends: ["refund", "escalate"] })
  .addNode("refund", refund)
  .addNode("escalate", escalate)
  .addEdge(START, "assess")
  .addConditionalEdges("assess", route, ["review", "escalate"])
  .addEdge("refund", END)
  .addEdge("escalate", END)
  .compile();
