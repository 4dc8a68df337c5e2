// Billing tools whose approval is off: `needsApproval: false`, a predicate that never asks, and
// one that asks only above a threshold (smaller refunds run without a human).
import Stripe from 'stripe';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export const refundCharge = tool({
  name: 'refund_charge',
  description: 'Refund a charge',
  parameters: z.object({ chargeId: z.string(), amountCents: z.number() }),
  needsApproval: false,
  execute: async ({ chargeId, amountCents }) => {
    await stripe.refunds.create({ charge: chargeId, amount: amountCents }); // EXPECT: UNGOVERNED-PATH
    return 'refunded';
  },
});

export const cancelSubscription = tool({
  name: 'cancel_subscription',
  description: 'Cancel a subscription',
  parameters: z.object({ subscriptionId: z.string() }),
  needsApproval: async () => false,
  execute: async ({ subscriptionId }) => {
    await stripe.subscriptions.cancel(subscriptionId); // EXPECT: UNGOVERNED-PATH
    return 'cancelled';
  },
});

export const partialRefund = tool({
  name: 'partial_refund',
  description: 'Refund part of a charge',
  parameters: z.object({ chargeId: z.string(), amountCents: z.number() }),
  needsApproval: async (_ctx, { amountCents }) => amountCents > 5000,
  execute: async ({ chargeId, amountCents }) => {
    await stripe.refunds.create({ charge: chargeId, amount: amountCents }); // EXPECT: UNGOVERNED-PATH
    return 'refunded';
  },
});

export const billingAgent = new Agent({ name: 'billing', tools: [refundCharge, cancelSubscription, partialRefund] });
