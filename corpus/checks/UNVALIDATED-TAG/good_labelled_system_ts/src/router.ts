// Router: the model's intent is validated, then labelled as the model's.

import OpenAI from 'openai';
import { AMIClient, state, tag } from '@memrail/sdk';
import { z } from 'zod';

const openai = new OpenAI();
const ami = new AMIClient({ project: 'support' });
const Intent = z.enum(['billing_refund', 'shipping', 'other', 'unknown']);

export async function route(ticket: { id: string; body: string }) {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: `Classify: ${ticket.body}` }],
  });
  const intent = Intent.parse(completion.choices[0].message.content);
  const decision = await ami.decide({
    decisionPoint: 'support.route',
    context: [
      state('ticket.id', ticket.id),
      tag('intent', intent, 'ml'), // EXPECT-NOT: UNVALIDATED-TAG
    ],
  });
  return decision.selected.map((item) => item.action.directive);
}
