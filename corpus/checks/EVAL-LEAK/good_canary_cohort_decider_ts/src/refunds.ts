// Refund requests through the SDK executor; the refund policy is a canary, and the cohort
// decision installed for it admits the pilot customers only.

import Stripe from 'stripe';
import { AMIClient, ToolRegistry, state } from '@memrail/sdk';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? 'missing');
const ami = new AMIClient({ workspace: 'production', project: 'billing' });
const registry = new ToolRegistry();
const PILOT = new Set(['cus_pilot_1', 'cus_pilot_2']);
ami.configureCanary({ decider: (_decision: unknown, context: { customerId: string }) => PILOT.has(context.customerId) }); // EXPECT-NOT: EVAL-LEAK

async function refundPayment(args: { chargeId: string; amountCents: number; requestId: string }) {
  const refund = await stripe.refunds.create(
    { charge: args.chargeId, amount: args.amountCents },
    { idempotencyKey: args.requestId },
  );
  return { refundId: refund.id };
}

registry.registerTool('refund_payment', 'Refund a settled charge', { type: 'object' }, ['billing'],
  refundPayment);

export async function handleRefundRequest(request: { id: string; amountCents: number }) {
  return ami.decideAndExecute({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', request.id), state('refund.amount_cents', request.amountCents)],
    autoAck: true,
  });
}
