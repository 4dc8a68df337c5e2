// Reply guidance: every decision names its point, so an unbound EMU is never evaluated.

import { AMIClient, tag } from '@memrail/sdk';

const ami = new AMIClient({ project: 'support' });

export async function guidance(sentiment: string) {
  const decision = await ami.decide({ decisionPoint: 'support.reply', context: [tag('sentiment', sentiment)] });
  return decision.selected.map((item) => item.action.directive);
}
