// Escalation: the policy is scoped per ticket, but the caller never says which ticket.

import { AMIClient, state, tag } from '@memrail/sdk';

const ami = new AMIClient({ project: 'support' });

export async function maybeEscalate(ticket: { id: string; customerId: string }, sentiment: string) {
  const decision = await ami.decide({ // EXPECT: ATOM-GAP
    decisionPoint: 'support.escalation',
    context: [state('customer.id', ticket.customerId), tag('sentiment', sentiment)],
  });
  return decision.selected.map((item) => item.action.directive);
}
