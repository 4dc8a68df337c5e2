// Router: the model's intent is parsed against the app's intents, as the policy names them.

import { AMIClient, state, tag } from '@memrail/sdk';
import { z } from 'zod';

const ami = new AMIClient();
const Intent = z.enum(['billing_refund', 'shipping', 'other']);

export async function route(ticket: { id: string }, modelIntent: string) {
  const intent = Intent.parse(modelIntent);
  const decision = await ami.decide({
    decisionPoint: 'support.route',
    context: [state('ticket.id', ticket.id), tag('intent', intent)],
  });
  return decision.selected.map((item) => item.action.directive);
}
