// Support outcomes recorded as Memrail events, stamped with instants (UTC).
import { AMIClient, event } from '@memrail/sdk';

const ami = new AMIClient({ workspace: 'production', project: 'support' });

export async function recordEmail(customer: { id: string }, message: { id: string }) {
  await ami.emitEvent({
    event: event('agent.sent.email', { // EXPECT-NOT: RECORDING-GAP
      ts: new Date(),
      attributes: { customer_id: customer.id, message_id: message.id },
    }),
  });
}

export async function recordEscalation(ticket: { id: string }) {
  const escalatedAt = new Date('2026-05-01T09:30:00Z');
  await ami.emitEvent({
    event: event('agent.escalated.ticket', { ts: escalatedAt, attributes: { ticket_id: ticket.id } }), // EXPECT-NOT: RECORDING-GAP
  });
}

export async function recordClose(ticket: { id: string; year: number; month: number; day: number }) {
  await ami.emitEvent({
    event: event('agent.closed.ticket', { // EXPECT-NOT: RECORDING-GAP
      ts: new Date(Date.UTC(ticket.year, ticket.month - 1, ticket.day)).toISOString(),
      attributes: { ticket_id: ticket.id },
    }),
  });
}
