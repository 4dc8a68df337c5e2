// Follow-up emails: decided in the `support` project, and the send is recorded into the same
// project, where the support trigger reads it.
import { AMIClient, event, state } from '@memrail/sdk';

const support = new AMIClient({ workspace: 'production', project: 'support' });

export async function afterResolution(ticket: { status: string }, customer: { id: string }) {
  const decision = await support.decide({
    decisionPoint: 'support.after_resolution',
    context: [state('customer.id', customer.id), state('ticket.status', ticket.status)],
  });
  return decision.selected.map((item: any) => item.action.directive);
}

export async function recordSend(customer: { id: string }, message: { id: string }) {
  await support.emitEvent({
    event: event('agent.sent.email', {
      ts: new Date(),
      attributes: { customer_id: customer.id, message_id: message.id },
    }),
    workspace: 'production',
    project: 'support',
  });
}
