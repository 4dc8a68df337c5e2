// Triage: decision points read through a namespace import and as keys of a constant object.

import { AMIClient, state } from '@memrail/sdk';
import * as points from './points';
import { POINTS } from './points';

const ami = new AMIClient({ workspace: 'production', project: 'support' });

export async function billingActions(ticket: { id: string }) {
  const decision = await ami.decide({ // EXPECT-NOT: DYNAMIC-DECISION-POINT
    decisionPoint: points.BILLING,
    context: [state('ticket.id', ticket.id)],
  });
  return decision.selected.map((item) => item.action);
}

export async function refundActions(ticket: { id: string }) {
  const decision = await ami.decide({ // EXPECT-NOT: DYNAMIC-DECISION-POINT
    decisionPoint: POINTS.refund,
    context: [state('ticket.id', ticket.id)],
  });
  return decision.selected.map((item) => item.action);
}
