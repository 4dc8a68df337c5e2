// Refunds selected by the `billing.refund` decision point; the refund is recorded as issued
// before Stripe is called.
import Stripe from 'stripe';
import { AMIClient, event, state } from '@memrail/sdk';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const ami = new AMIClient({ workspace: 'production', project: 'billing' });

export async function refund(ticket: { id: string; charge: string; amount: number }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', ticket.id), state('refund.amount_cents', ticket.amount)],
  });
  for (const item of decision.selected) {
    await ami.emitEvent({
      event: event('agent.issued.refund', { ts: new Date(), attributes: { request_id: ticket.id } }),
    });
    await stripe.refunds.create({ charge: ticket.charge, amount: ticket.amount }); // EXPECT: RECORDING-GAP
  }
}
