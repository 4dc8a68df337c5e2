// Refund requests: decide, then run the selected tool through the app's own dispatcher.

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

export async function handleRefundRequest(request: { id: string; amountCents: number }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', request.id), state('refund.amount_cents', request.amountCents)],
  });
  const results = [];
  for (const item of decision.selected) {
    if (item.action.type === 'tool_call') {
      results.push(await TOOLS[item.action.tool.tool_id](item.action.tool.args)); // EXPECT: EVAL-LEAK
    }
  }
  return results;
}
