// The one helper that moves money.
import Stripe from 'stripe';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export async function issueRefund(chargeId: string, amountCents: number) {
  return stripe.refunds.create({ charge: chargeId, amount: amountCents });
}
