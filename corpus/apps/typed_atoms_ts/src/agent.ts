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

const RefundRequest = z.object({
  amount: z.number().int().positive(),
  reason: z.enum(['damaged', 'late']),
  note: z.string().optional(),
  meta: z.record(z.string()),
});

export async function requestRefund(body: unknown) {
  const request = RefundRequest.parse(body);
  return ami.decide({
    decisionPoint: 'support.refund_request',
    context: [
      state('refund.amount_cents', request.amount),
      state('refund.note', request.note),
      state('refund.meta', request.meta),
      tag('reason', request.reason),
    ],
  });
}
