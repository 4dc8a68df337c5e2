// Refunds when Memrail selects it; a Memrail outage keeps (or grants) the permission.
import Stripe from 'stripe';
import { AMIClient, event, state } from '@memrail/sdk';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');
const ami = new AMIClient({ workspace: 'production', project: 'billing' });

export async function refundTicket(ticketId: string, chargeId: string, amountCents: number) {
  let ok = true; // EXPECT: UNSAFE-FALLBACK
  try {
    const decision = await ami.decide({
      decisionPoint: 'billing.refund',
      context: [state('refund.ticket_id', ticketId), state('refund.amount_cents', amountCents)],
    });
    ok = decision.selected.length > 0;
  } catch (err) {
    console.warn('memrail unavailable', err);
  }
  if (ok) {
    await stripe.refunds.create({ charge: chargeId, amount: amountCents });
    await ami.emitEvent(event('billing.issued.refund', { ts: new Date(), attributes: { ticket_id: ticketId } }));
  }
}

async function mayRefund(ticketId: string, amountCents: number): Promise<boolean> {
  try {
    const decision = await ami.decide({
      decisionPoint: 'billing.refund',
      context: [state('refund.ticket_id', ticketId), state('refund.amount_cents', amountCents)],
    });
    return decision.selected.length > 0;
  } catch {
    return true; // EXPECT: UNSAFE-FALLBACK
  }
}

export async function refundOrder(ticketId: string, chargeId: string, amountCents: number) {
  const allowed = await mayRefund(ticketId, amountCents);
  if (allowed) {
    await stripe.refunds.create({ charge: chargeId, amount: amountCents });
    await ami.emitEvent(event('billing.issued.refund', { ts: new Date(), attributes: { ticket_id: ticketId } }));
  }
}
