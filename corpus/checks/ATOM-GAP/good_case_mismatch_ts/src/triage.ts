// Gold customers' tickets are given their tier in lower case, as the policy reads it.

import { AMIClient, state } from '@memrail/sdk';

const ami = new AMIClient({ project: 'support' });

export async function triageGold(ticket: { id: string }) {
  const decision = await ami.decide({
    decisionPoint: 'support.triage',
    context: [state('ticket.id', ticket.id), state('customer.tier', 'gold')],
  });
  return decision.selected.map((item) => item.action.directive);
}
