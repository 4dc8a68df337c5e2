// Both routes reach the refund helper through the same decision point.
import { AMIClient, state } from '@memrail/sdk';
import { issueRefund } from './lib/payments';

const ami = new AMIClient({ project: 'billing' });

async function decided(requestId: string, amountCents: number, by: string) {
  const decision = await ami.decide({
    decisionPoint: 'billing.refund',
    context: [
      state('refund.request_id', requestId),
      state('refund.amount_cents', amountCents),
      state('refund.requested_by', by),
    ],
  });
  return decision.selected.length > 0;
}

export async function customerRefund(request: { id: string; chargeId: string; amountCents: number }) {
  if (!(await decided(request.id, request.amountCents, 'customer'))) {
    return 'declined';
  }
  return issueRefund(request.chargeId, request.amountCents);
}

export async function adminRefund(request: { id: string; chargeId: string; amountCents: number }) {
  if (!(await decided(request.id, request.amountCents, 'admin'))) {
    return 'declined';
  }
  return issueRefund(request.chargeId, request.amountCents);
}
