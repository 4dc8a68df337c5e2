// Lead intake: only segments in ALLOWED_SEGMENTS are tagged, and 'enterprise' is not one.

import { AMIClient, state, tag } from '@memrail/sdk';

const ami = new AMIClient({ project: 'sales' });
const ALLOWED_SEGMENTS = ['smb', 'mid_market'];

export async function intake(lead: { id: string }, segment: string) {
  if (!ALLOWED_SEGMENTS.includes(segment)) {
    throw new Error(`unknown segment ${segment}`);
  }
  const decision = await ami.decide({ // EXPECT: ATOM-GAP
    decisionPoint: 'sales.lead_intake',
    context: [state('lead.id', lead.id), tag('segment', segment)],
  });
  return decision.selected.map((item) => item.action.directive);
}
