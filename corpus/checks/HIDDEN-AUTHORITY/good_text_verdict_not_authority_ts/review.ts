// Text tests that do not hand a model the decision: the same regular expression over the
// customer's own request or over configuration, and a model verdict that is only evidence for
// the policy that decides.
import { AMIClient, state } from '@memrail/sdk';
import OpenAI from 'openai';
import Stripe from 'stripe';

const openai = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_KEY!);
const ami = new AMIClient({ workspace: 'production', project: 'billing' });
const MODE = process.env.REFUND_MODE ?? 'manual';
const DISPUTE_WORDS = ['chargeback', 'fraud'];

export async function refundOnRequest(ticket: { text: string; chargeId: string }) {
  // The customer's own words, not a model's: a rule over the request decides.
  const asked = /\brefund\b/i.test(ticket.text);
  const disputed = DISPUTE_WORDS.some((word) => ticket.text.toLowerCase().includes(word));
  if (asked && !disputed) {
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT-NOT: HIDDEN-AUTHORITY
  }
}

export async function refundByMode(ticket: { chargeId: string }) {
  const automatic = MODE.startsWith('auto');
  if (automatic) {
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT-NOT: HIDDEN-AUTHORITY
  }
}

export async function refundByPolicy(ticket: { id: string; text: string; chargeId: string }) {
  const reply = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: `Reply APPROVE or DENY: ${ticket.text}` }],
  });
  const suggested = /\bAPPROVE\b/i.test(reply.choices[0].message.content ?? '');
  // The policy decides; the model's verdict is one labelled piece of evidence.
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [state('ticket.id', ticket.id), state('refund.model_suggests', suggested, 'ml')],
  });
  if (decision.selected.length > 0) {
    // No outcome event is recorded (RECORDING-GAP): not this fixture's subject.
    await stripe.refunds.create({ charge: ticket.chargeId }); // EXPECT-NOT: HIDDEN-AUTHORITY // EXPECT: RECORDING-GAP
  }
}
