// The model proposes the refund; only an environment switch and the customer's tier stand
// before it. None of them decides on what the model proposed: the path is ungoverned.
import OpenAI from 'openai';
import Stripe from 'stripe';

const client = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_KEY ?? '');

export async function refundFromChat(message: string, customer: { tier: string }) {
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: message }] });
  const plan = JSON.parse(reply.choices[0].message.content ?? '{}');
  if (process.env.AUTO_REFUND !== 'true') {
    return;
  }
  if (customer.tier === 'gold') {
    await stripe.refunds.create({ charge: plan.chargeId, amount: plan.amountCents }); // EXPECT: UNGOVERNED-PATH  // EXPECT-NOT: HIDDEN-AUTHORITY
  }
}
