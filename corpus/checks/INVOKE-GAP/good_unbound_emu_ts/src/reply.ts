// Reply guidance: an unnamed decision evaluates the EMUs bound to no point.

import { AMIClient, tag } from '@memrail/sdk';

const ami = new AMIClient({ project: 'support' });

export async function guidance(sentiment: string) {
  const decision = await ami.decide({ context: [tag('sentiment', sentiment)] });
  return decision.selected.map((item) => item.action.directive);
}
