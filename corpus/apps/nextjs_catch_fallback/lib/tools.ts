import Stripe from 'stripe';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!);

export async function refundCharge(args: { charge: string; amount: number }) {
  return stripe.refunds.create({ charge: args.charge, amount: args.amount });
}

export async function cancelSubscription(args: { id: string }) {
  return stripe.subscriptions.cancel(args.id);
}

export const TOOLS: Record<string, (args: any) => Promise<unknown>> = {
  refund_charge: refundCharge,
  cancel_subscription: cancelSubscription,
};
