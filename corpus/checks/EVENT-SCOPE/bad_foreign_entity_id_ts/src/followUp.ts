// Follow-up emails: the duplicate guard filters on the customer, but the send is recorded with
// the order's id under `customer_id`, so the guard never finds it.
import { AMIClient, event, state } from '@memrail/sdk';

const ami = new AMIClient({ workspace: 'production', project: 'support' });

export async function afterResolution(ticket: { status: string }, customer: { id: string }) {
  const decision = await ami.decide({
    decisionPoint: 'support.after_resolution',
    context: [state('customer.id', customer.id), state('ticket.status', ticket.status)],
  });
  return decision.selected.map((item: any) => item.action.directive);
}

export async function recordSend(order: { id: string; customerId: string }, messageId: string) {
  await ami.emitEvent({
    event: event('agent.sent.email', {
      ts: new Date(),
      attributes: { customer_id: order.id, message_id: messageId },
    }),
  });
}
