// Refunds selected by the `billing.refund` decision point; only a refund that went through is
// recorded as done.
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
    try {
      await stripe.refunds.create({ charge: ticket.charge, amount: ticket.amount }); // EXPECT-NOT: RECORDING-GAP
    } catch (err) {
      console.error('refund failed', err);
      throw err;
    }
    await ami.emitEvent({
      event: event('agent.issued.refund', { ts: new Date(), attributes: { request_id: ticket.id } }),
    });
  }
}

export async function credit(ticket: { id: string; charge: string; amount: number }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.credit',
    context: [state('credit.request_id', ticket.id)],
  });
  for (const item of decision.selected) {
    try {
      await stripe.refunds.create({ charge: ticket.charge, amount: ticket.amount }); // EXPECT-NOT: RECORDING-GAP
      await ami.ack({ activationId: item.activation_id, status: 'acknowledged', code: 'SUCCESS' });
    } finally {
      console.info('credit handled', ticket.id);
    }
  }
}
