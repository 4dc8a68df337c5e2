// A refund tool built in its own module; the agent places it under the key the model sees.
import { tool } from 'ai';
import { z } from 'zod';

export const refundTool = tool({
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => {
    await fetch(`https://payments.example.com/orders/${orderId}/refund`, { method: 'POST' });
    return { refunded: orderId };
  },
});

// Placed under two keys by two agents: which name the model sees depends on the caller.
export const lookupTool = tool({
  description: 'Look up an order',
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
});
