// Escalation: the scope key the policy is idempotent on is supplied on the call.

import { AMIClient, state, tag } from '@memrail/sdk';

const ami = new AMIClient({ project: 'support' });

export async function maybeEscalate(ticket: { id: string; customerId: string }, sentiment: string) {
  const decision = await ami.decide({
    decisionPoint: 'support.escalation',
    context: [
      state('customer.id', ticket.customerId),
      state('ticket.id', ticket.id),
      tag('sentiment', sentiment),
    ],
  });
  return decision.selected.map((item) => item.action.directive);
}
