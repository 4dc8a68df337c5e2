// Names that collide with Memrail's but are not Memrail: none of these is a site.
import { AMIClient } from '@acme/ami-client';
import { state } from 'zustand/vanilla-state';

function decide(options: { decisionPoint: string }) {
  return options.decisionPoint.length > 3;
}

export function decoys() {
  const other = new AMIClient();
  other.decide({ decisionPoint: 'support.refund', context: [] });
  decide({ decisionPoint: 'support.refund' });
  return state('refund.amount_cents', 1);
}
