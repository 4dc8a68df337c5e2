// The same environment switch and tier check, and a decision on the model's proposal: the
// decision governs the path; the checks still select the effect.
import OpenAI from 'openai';
import Stripe from 'stripe';
import { AMIClient, state } from '@memrail/sdk';

const client = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const ami = new AMIClient({ project: 'support' });

export async function refundFromChat(message: string, customer: { tier: string }) {
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: message }] });
  const plan = JSON.parse(reply.choices[0].message.content ?? '{}');
  if (process.env.AUTO_REFUND !== 'true') {
    return;
  }
  const decision = await ami.decide({
    decisionPoint: 'support.refund',
    context: [state('refund.amount_cents', plan.amountCents)],
  });
  if (decision.selected.length === 0) {
    return;
  }
  if (customer.tier === 'gold') {
    await stripe.refunds.create({ charge: plan.chargeId, amount: plan.amountCents }); // EXPECT-NOT: UNGOVERNED-PATH, HIDDEN-AUTHORITY  // EXPECT: RECORDING-GAP
  }
}
