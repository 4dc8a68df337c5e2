import OpenAI from "openai";
import Stripe from "stripe";

const client = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_KEY ?? "");
const AUTO_REFUND = 0.8;

export async function triage(ticket: { text: string; chargeId: string }) {
  const reply = await client.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: ticket.text }],
  });
  const verdict = JSON.parse(reply.choices[0].message.content ?? "{}");
  if (verdict.action === "refund") { // EXPECT: HIDDEN-AUTHORITY
    if (verdict.confidence >= AUTO_REFUND) { // EXPECT: HIDDEN-AUTHORITY
      await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
    }
  }
}
