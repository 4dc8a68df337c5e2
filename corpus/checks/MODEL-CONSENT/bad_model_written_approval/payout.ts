// The support agent's tool marks a refund approved; the payout job trusts that flag.
import Stripe from 'stripe';
import { PrismaClient } from '@prisma/client';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');
const prisma = new PrismaClient();

export const approveRefund = tool({
  name: 'approve_refund',
  description: "Mark a customer's refund request as approved",
  parameters: z.object({ requestId: z.string() }),
  execute: async ({ requestId }) => {
    await prisma.refundRequest.update({ where: { id: requestId }, data: { approved: true } }); // EXPECT: UNGOVERNED-PATH
    return 'approved';
  },
});

export const supportAgent = new Agent({ name: 'support', tools: [approveRefund] });

export async function payApprovedRefunds(): Promise<void> {
  const requests = await prisma.refundRequest.findMany({ where: { paid: false } });
  for (const request of requests) {
    if (!request.approved) continue; // EXPECT: MODEL-CONSENT
    await stripe.refunds.create({ charge: request.chargeId, amount: request.amountCents });
  }
}
