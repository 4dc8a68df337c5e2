// Registered executors of the billing project: a failed refund is logged and thrown again.

import Stripe from 'stripe';
import { ToolRegistry } from '@memrail/sdk';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? 'missing');
export const registry = new ToolRegistry();

async function refundPayment(args: { chargeId: string; amountCents: number }) {
  try {
    const refund = await stripe.refunds.create({ charge: args.chargeId, amount: args.amountCents });
    return { refundId: refund.id };
  } catch (error) {
    console.error('refund failed', error);
    throw error;
  }
}

registry.registerTool('refund_payment', 'Refund a settled charge', { type: 'object' }, ['billing'],
  refundPayment, { timeoutMs: 10000 });
