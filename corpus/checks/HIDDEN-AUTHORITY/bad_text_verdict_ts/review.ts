// Verdicts parsed from a model's free-text answer decide money movements: the decision is the
// statement that parses the verdict, the `if` below it only asks it.
import OpenAI from 'openai';
import Stripe from 'stripe';

const openai = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_KEY!);
const REFUSALS = ['deny', 'reject', 'escalate'];

async function ask(prompt: string): Promise<string> {
  const reply = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: prompt }],
  });
  return reply.choices[0].message.content ?? '';
}

export async function reviewRefund(ticket: { text: string; chargeId: string }) {
  const answer = await ask(`Reply APPROVE or DENY: ${ticket.text}`);
  const approved = /\bAPPROVE\b/i.test(answer); // EXPECT: HIDDEN-AUTHORITY
  if (approved) { // EXPECT: MODEL-CONSENT
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT: UNGOVERNED-PATH
  }
}

export async function reviewCancellation(order: { summary: string; subscriptionId: string }) {
  const text = (await ask(order.summary)).toLowerCase();
  const refused = REFUSALS.some((word) => text.includes(word)); // EXPECT: HIDDEN-AUTHORITY
  if (refused) return 'kept';
  await stripe.subscriptions.cancel(order.subscriptionId); // EXPECT: UNGOVERNED-PATH
  return 'cancelled';
}

export async function reviewPayout(claim: { summary: string; amount: number }) {
  const verdict = await ask(claim.summary);
  const ok = verdict.trim().startsWith('APPROVE'); // EXPECT: HIDDEN-AUTHORITY
  if (ok) {
    await stripe.payouts.create({ amount: claim.amount, currency: 'usd' }); // EXPECT: UNGOVERNED-PATH
  }
}
