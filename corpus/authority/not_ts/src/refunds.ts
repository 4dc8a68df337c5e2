// Tests that are no authority over the effect: a chat message's role, an existence lookup
// (a duplicate guard), a plain amount check, and a role read that guards nothing consequential.
import Stripe from 'stripe';
import { PrismaClient } from '@prisma/client';
import nodemailer from 'nodemailer';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const prisma = new PrismaClient();
const mailer = nodemailer.createTransport({ host: 'localhost' });

export async function forwardReply(message: { role: string; content: string }, to: string) {
  if (message.role === 'assistant') {
    await mailer.sendMail({ to, text: message.content });
  }
}

export async function refundOnce(charge: string) {
  const existing = await prisma.refund.findFirst({ where: { charge } });
  if (!existing) {
    await stripe.refunds.create({ charge });
  }
}

export async function refundSmall(charge: string, amount: number) {
  if (amount < 1000) {
    await stripe.refunds.create({ charge, amount });
  }
}

export function greeting(user: { role: string }) {
  if (user.role === 'admin') {
    return 'Hello, admin';
  }
  return 'Hello';
}

export async function refundWithKey(charge: string) {
  // A required setting's presence check: the key is passed on, nothing is switched.
  const apiKey = process.env.STRIPE_SECRET_KEY;
  if (!apiKey) {
    throw new Error('STRIPE_SECRET_KEY is not set');
  }
  await new Stripe(apiKey).refunds.create({ charge });
}
