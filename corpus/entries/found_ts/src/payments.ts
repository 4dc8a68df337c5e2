// The one money movement every entry below reaches.
import Stripe from 'stripe';

export const stripe = new Stripe(process.env.STRIPE_KEY ?? '');

export async function issueRefund(charge: string, amount: number) {
  return stripe.refunds.create({ charge, amount });
}
