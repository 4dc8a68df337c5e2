// Billing tools a human approves on every call: `needsApproval: true`, or a predicate that always asks.
import Stripe from 'stripe';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export const refundCharge = tool({
  name: 'refund_charge',
  description: 'Refund a charge',
  parameters: z.object({ chargeId: z.string(), amountCents: z.number() }),
  needsApproval: async (_ctx, { chargeId }) => {
    console.log(`refund of ${chargeId} needs a reviewer`);
    return true;
  },
  execute: async ({ chargeId, amountCents }) => {
    await stripe.refunds.create({ charge: chargeId, amount: amountCents }); // EXPECT-NOT: UNGOVERNED-PATH
    return 'refunded';
  },
});

export const cancelSubscription = tool({
  name: 'cancel_subscription',
  description: 'Cancel a subscription',
  parameters: z.object({ subscriptionId: z.string() }),
  needsApproval: true,
  execute: async ({ subscriptionId }) => {
    await stripe.subscriptions.cancel(subscriptionId); // EXPECT-NOT: UNGOVERNED-PATH
    return 'cancelled';
  },
});

export const billingAgent = new Agent({ name: 'billing', tools: [refundCharge, cancelSubscription] });
