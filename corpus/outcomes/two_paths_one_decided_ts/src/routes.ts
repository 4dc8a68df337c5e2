// Two routes reach the refund helper; only the customer route asks the decision point.
import { AMIClient, state } from '@memrail/sdk';
import { issueRefund } from './lib/payments';

const ami = new AMIClient({ project: 'billing' });

export async function customerRefund(request: { id: string; chargeId: string; amountCents: number }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', request.id), state('refund.amount_cents', request.amountCents)],
  });
  if (decision.selected.length === 0) {
    return 'declined';
  }
  return issueRefund(request.chargeId, request.amountCents);
}

export async function adminRefund(request: { chargeId: string; amountCents: number }) {
  return issueRefund(request.chargeId, request.amountCents);
}
