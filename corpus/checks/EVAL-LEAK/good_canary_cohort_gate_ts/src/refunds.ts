// Refund requests: decide, then run the selected tool through the app's own dispatcher; a
// canary selection runs only for customers in the application's cohort.

import Stripe from 'stripe';
import { AMIClient, state } from '@memrail/sdk';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? 'missing');
const ami = new AMIClient({ workspace: 'production', project: 'billing' });

async function refundPayment(args: { chargeId: string; amountCents: number; requestId: string }) {
  const refund = await stripe.refunds.create(
    { charge: args.chargeId, amount: args.amountCents },
    { idempotencyKey: args.requestId },
  );
  return { refundId: refund.id };
}

const TOOLS: Record<string, (args: any) => Promise<unknown>> = { refund_payment: refundPayment };
const PILOT = new Set(['cus_pilot_1', 'cus_pilot_2']);

export async function handleRefundRequest(request: { id: string; amountCents: number; customerId: string }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', request.id), state('refund.amount_cents', request.amountCents)],
  });
  const results = [];
  for (const item of decision.selected) {
    if (item.lifecycle_state === 'canary' && !PILOT.has(request.customerId)) continue;
    if (item.action.type === 'tool_call') {
      results.push(await TOOLS[item.action.tool.tool_id](item.action.tool.args)); // EXPECT-NOT: EVAL-LEAK
    }
  }
  return results;
}
