// The support agent files refund requests; only a signed-in admin approves them (the route
// below), and the payout job pays what an admin approved.
import Stripe from 'stripe';
import express from 'express';
import { PrismaClient } from '@prisma/client';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
import { requireAdmin } from './auth';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');
const prisma = new PrismaClient();
export const app = express();

export const requestRefund = tool({
  name: 'request_refund',
  description: 'File a refund request for an admin to review',
  parameters: z.object({ chargeId: z.string(), amountCents: z.number() }),
  execute: async ({ chargeId, amountCents }) => {
    await prisma.refundRequest.create({ data: { chargeId, amountCents, approved: false } }); // EXPECT: UNGOVERNED-PATH
    return 'filed for review';
  },
});

export const supportAgent = new Agent({ name: 'support', tools: [requestRefund] });

app.post('/refund-requests/:id/approve', requireAdmin, async (req, res) => {
  await prisma.refundRequest.update({ where: { id: req.params.id }, data: { approved: true, approvedBy: req.user.id } });
  res.json({ approved: true });
});

export async function payApprovedRefunds(): Promise<void> {
  const requests = await prisma.refundRequest.findMany({ where: { paid: false } });
  for (const request of requests) {
    if (!request.approved) continue; // EXPECT-NOT: MODEL-CONSENT
    await stripe.refunds.create({ charge: request.chargeId, amount: request.amountCents });
  }
}
