// Refund requests through the SDK executor; the new refund policy is evaluated in shadow, and
// the executor is told to run shadow selections to compare their outcomes.

import Stripe from 'stripe';
import { ActionExecutor, AMIClient, ShadowMode, ToolRegistry, state } from '@memrail/sdk';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? 'missing');
const ami = new AMIClient({ workspace: 'production', project: 'billing' });
const registry = new ToolRegistry();

async function refundPayment(args: { chargeId: string; amountCents: number; requestId: string }) {
  const refund = await stripe.refunds.create(
    { charge: args.chargeId, amount: args.amountCents },
    { idempotencyKey: args.requestId },
  );
  return { refundId: refund.id };
}

registry.registerTool('refund_payment', 'Refund a settled charge', { type: 'object' }, ['billing'],
  refundPayment);
const executor = new ActionExecutor(registry, 'billing');
executor.configureShadow(ShadowMode.EXECUTE_AND_COMPARE); // EXPECT: EVAL-LEAK

export async function handleRefundRequest(request: { id: string; amountCents: number }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', request.id), state('refund.amount_cents', request.amountCents)],
  });
  return executor.executeDecisions(decision.selected, {});
}
