// Refunds: the API route decides first; the cron job retries pending refunds without asking.

import Stripe from 'stripe';
import cron from 'node-cron';
import { AMIClient, event, state } from '@memrail/sdk';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const ami = new AMIClient({ project: 'billing' });

async function issueRefund(charge: string, amount: number) {
  const refund = await stripe.refunds.create({ charge, amount });
  await ami.emitEvent({ event: event('billing.issued.refund', { ts: new Date().toISOString(), attributes: { charge } }) });
  return refund;
}

export async function handleRefundRequest(request: { id: string; charge: string; amount: number }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', request.id), state('refund.amount_cents', request.amount)],
  });
  if (decision.selected.length > 0) {
    return issueRefund(request.charge, request.amount);
  }
  return null;
}

export async function retryPendingRefunds(pending: { charge: string; amount: number }[]) {
  for (const item of pending) {
    await issueRefund(item.charge, item.amount);
  }
}

// The scheduled callback is the entry of the bypassing chain.
cron.schedule('0 3 * * *', () => retryPendingRefunds([])); // EXPECT: INVOKE-GAP
