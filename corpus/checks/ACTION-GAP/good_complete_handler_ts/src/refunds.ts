// Refund requests: build the context, decide, let the registered executor act.

import { AMIClient, state } from '@memrail/sdk';

const ami = new AMIClient({ workspace: 'production', project: 'billing' });

export async function refundRequest(request: { id: string; amountCents: number }) {
  return ami.decideAndExecute({
    decisionPoint: 'billing.refund',
    context: [state('refund.request_id', request.id), state('refund.amount_cents', request.amountCents)],
    autoAck: true,
  });
}
