import { PrismaClient } from "@prisma/client";
import Stripe from "stripe";

const db = new PrismaClient();
const stripe = new Stripe(process.env.STRIPE_KEY!);

export async function refundOnce(requestId: string, chargeId: string) {
  const existing = await db.refund.findFirst({ where: { requestId } });
  if (!existing) { // EXPECT: GHOST-NEGATIVE
    await stripe.refunds.create({ charge: chargeId });
  }
}
