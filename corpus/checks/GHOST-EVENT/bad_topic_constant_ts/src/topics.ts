// Event topics, named once for the whole app: the email topic is not the one the EMU reads.
export const Topics = {
  SENT_EMAIL: 'agent.sent.message',
  CLOSED_TICKET: 'agent.closed.ticket',
} as const;
