import { Client } from "@mubit-ai/sdk";
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);
const client = new Client({ api_key: process.env.MUBIT_API_KEY, run_id: "nimbus:ticket-1090", transport: "http" });

export async function requestRefund(ticketId: string, chargeId: string, amount: number) {
  const verdict = await client.handoff({
    session_id: "nimbus:ticket-1090", task_id: `${ticketId}-refund`, from_agent_id: "ari",
    to_agent_id: "human-billing-lead", requested_action: "approve", content: `Refund $${amount}`,
    await_verdict: true,
  });
  if (verdict !== "approve") return "held";
  await stripe.refunds.create({ charge: chargeId, amount });
  await client.remember({ session_id: "nimbus:ticket-1090", content: `refund issued ${ticketId}`,
                          intent: "trace", idempotency_key: `${ticketId}:refund-issued` });
}

export async function consoleDecision(session: { operator: { id: string } }, handoffId: string, decision: string) {
  await client.feedback({ session_id: "nimbus:ticket-1090", handoff_id: handoffId,
                          from_agent_id: "human-billing-lead", verdict: decision });
}
