// Functions named like jobs and handlers that nothing registers: none is an entry point.
import Stripe from 'stripe';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');

export async function issueRefund(charge: string, amount: number) {
  return stripe.refunds.create({ charge, amount });
}

export async function nightlyRefundJob() {
  await issueRefund('ch_nightly', 500);
}

export async function handleWebhook(payload: { charge: string }) {
  await issueRefund(payload.charge, 100);
}

// A one-off timer is no schedule.
setTimeout(() => issueRefund('ch_once', 100), 1000);
