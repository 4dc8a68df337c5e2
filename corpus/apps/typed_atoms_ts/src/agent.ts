// Atoms whose values are typed by annotations, class fields and validators, not literals.
import { AMIClient, state, tag } from '@memrail/sdk';
import { z } from 'zod';
import { Ticket } from './models';

const ami = new AMIClient({ project: 'support' });
const Intent = z.enum(['refund', 'question']);

export async function handle(ticket: Ticket, amount: number, priority: 'low' | 'high',
                             raw: string, anything: any) {
  const intent = Intent.parse(raw);
  return ami.decide({
    decisionPoint: 'support.refund',
    context: [
      state('refund.amount_cents', ticket.amountCents),
      state('refund.requested_cents', amount),
      state('customer.tier', ticket.tier),
      state('refund.count', Number(raw)),
      state('ticket.extra', ticket.extra),
      state('ticket.anything', anything),
      tag('priority', priority),
      tag('intent', intent),
    ],
  });
}
