// Checkout asks for guidance; the order flow records each paid order.

import { AMIClient, event, state } from '@memrail/sdk';

const ami = new AMIClient({ project: 'billing' });

export async function guidance(customer: { id: string }) {
  const decision = await ami.decide({
    decisionPoint: 'billing.checkout',
    context: [state('customer.id', customer.id)],
  });
  return decision.selected.map((item) => item.action.directive);
}

export async function recordPayment(customer: { id: string }) {
  await ami.emitEvent({
    event: event('customer.paid.order', { ts: new Date().toISOString(), attributes: { customer_id: customer.id } }),
    project: 'billing',
  });
}
