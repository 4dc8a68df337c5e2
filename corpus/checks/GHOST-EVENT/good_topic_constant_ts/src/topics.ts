// Event topics, named once for the whole app.
export const Topics = {
  SENT_EMAIL: 'agent.sent.email',
  CLOSED_TICKET: 'agent.closed.ticket',
} as const;
