// Support outcomes recorded as Memrail events, stamped with local times.
import { AMIClient, event } from '@memrail/sdk';

const ami = new AMIClient({ workspace: 'production', project: 'support' });

export async function recordEmail(customer: { id: string }, message: { id: string }) {
  await ami.emitEvent({
    event: event('agent.sent.email', { // EXPECT: RECORDING-GAP
      ts: new Date().toLocaleString(),
      attributes: { customer_id: customer.id, message_id: message.id },
    }),
  });
}

export async function recordEscalation(ticket: { id: string; escalatedOn: string }) {
  const escalatedAt = new Date('2026-05-01T09:30:00');
  await ami.emitEvent({
    event: event('agent.escalated.ticket', { ts: escalatedAt, attributes: { ticket_id: ticket.id } }), // EXPECT: RECORDING-GAP
  });
}

export async function recordClose(ticket: { id: string; year: number; month: number; day: number }) {
  await ami.emitEvent({
    event: event('agent.closed.ticket', { // EXPECT: RECORDING-GAP
      ts: new Date(ticket.year, ticket.month - 1, ticket.day),
      attributes: { ticket_id: ticket.id },
    }),
  });
}
