// Must not be invented: what the code does not say stays `unknown`.
//
// - a client built with no literal project (`new AMIClient()` reads AMI_PROJECT at run time,
//   and `project: process.env.BILLING_PROJECT` is not a literal): memrail_project unknown;
// - a decision point passed in by the caller is not a name the audit can read.

import { AMIClient, state } from '@memrail/sdk';

const envClient = new AMIClient();
const configured = new AMIClient({ project: process.env.BILLING_PROJECT });

export async function reconcile(order: { id: string }) {
  const decision = await envClient.decide({ decisionPoint: 'billing.reconcile', context: [state('order.id', order.id)] });
  return decision.selected.map((item) => item.action.directive);
}

export async function settle(order: { id: string }) {
  const decision = await configured.decide({ decisionPoint: 'billing.settle', context: [state('order.id', order.id)] });
  return decision.selected.map((item) => item.action.directive);
}

export async function decideAt(point: string, order: { id: string }) {
  const decision = await envClient.decide({ decisionPoint: point, context: [state('order.id', order.id)] });
  return decision.selected.map((item) => item.action.directive);
}
