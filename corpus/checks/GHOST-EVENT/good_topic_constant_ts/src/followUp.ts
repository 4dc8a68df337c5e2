// Follow-up emails after a ticket is resolved: decide, send, record the send under a topic
// held in an exported object constant.
import { AMIClient, ToolRegistry, event, state } from '@memrail/sdk';
import { Topics } from './topics';

const client = new AMIClient({ workspace: 'production', project: 'support' });
const registry = new ToolRegistry();

registry.registerTool('send_follow_up_email', 'Send the resolution follow-up email', {}, ['support'],
  async (args: { customer_id: string }) => {
    const messageId = `follow-up-${args.customer_id}`;
    await client.emitEvent({
      event: event(Topics.SENT_EMAIL, {
        ts: new Date(),
        attributes: { customer_id: args.customer_id, message_id: messageId },
      }),
    });
    return { messageId };
  });

export async function afterResolution(ticket: { status: string }, customer: { id: string }) {
  return client.decideAndExecute({
    decisionPoint: 'support.after_resolution',
    context: [state('customer.id', customer.id), state('ticket.status', ticket.status)],
  });
}
