// A model scores a refund request; the graph's router refunds automatically when the model
// is confident enough.
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
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
  if (state.confidence >= 0.8) { // EXPECT: HIDDEN-AUTHORITY
    return "refund";
  }
  return "escalate";
}

async function refund(state: typeof Ticket.State) {
  await stripe.refunds.create({ charge: state.chargeId }); // EXPECT: UNGOVERNED-PATH
  return {};
}

async function escalate(state: typeof Ticket.State) {
  return {};
}

export const graph = new StateGraph(Ticket)
  .addNode("assess", assess)
  .addNode("refund", refund)
  .addNode("escalate", escalate)
  .addEdge(START, "assess")
  .addConditionalEdges("assess", route, ["refund", "escalate"])
  .addEdge("refund", END)
  .addEdge("escalate", END)
  .compile();
