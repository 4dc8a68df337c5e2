// Refund agent: the model scores the ticket, Memrail decides, Stripe refunds, an event records it.

import Stripe from 'stripe';
import { AMIClient, event, state, tag } from '@memrail/sdk';
import OpenAI from 'openai';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const client = new OpenAI();
const ami = new AMIClient();

async function assess(text: string) {
  const resp = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: text }],
  });
  return JSON.parse(resp.choices[0].message.content ?? '{}');
}

export async function handle(ticket: { text: string; amount: number; charge: string }) {
  const verdict = await assess(ticket.text);
  if (verdict.confidence < 0.6) {
    return 'escalated';
  }
  const decision = await ami.decide({
    decisionPoint: 'support.refund',
    context: [
      state('refund.amount_cents', ticket.amount),
      tag('intent', verdict.intent, 'ml'),
    ],
  });
  if (decision.selected.length === 0) {
    return 'denied';
  }
  await refund(ticket);
  return 'refunded';
}

async function refund(ticket: { amount: number; charge: string }) {
  await stripe.refunds.create({ charge: ticket.charge, amount: ticket.amount });
  await ami.emitEvent({ event: event('agent.issued.refund', { ts: 'now', attributes: { charge: ticket.charge } }) });
}
