// Registered executors of the billing project: the refund tool is registered before it works.

import { ToolRegistry } from '@memrail/sdk';

export const registry = new ToolRegistry();

async function refundPayment(args: { chargeId: string; amountCents: number }) {
  throw new Error(`refunds are not implemented yet (${args.chargeId})`);
}

registry.registerTool('refund_payment', 'Refund a settled charge', { type: 'object' }, ['billing'],
  refundPayment);
