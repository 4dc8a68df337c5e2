// Refund requests: an adapter hands the dispatcher the selected actions, and only those.

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
  const actions = decision.selected.map((item) => item.action);
  const results = [];
  for (const action of actions) {
    if (action.type === 'tool_call') {
      results.push(await TOOLS[action.tool.tool_id](action.tool.args)); // EXPECT: EVAL-LEAK
    }
  }
  return results;
}
