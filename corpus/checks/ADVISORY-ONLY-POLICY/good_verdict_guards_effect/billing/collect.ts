// Dunning: a person approves the retry; the model's risk note is only shown to them.
import OpenAI from 'openai';
import Stripe from 'stripe';
import { approvals } from './approvals';

const openai = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export async function retryCharge(invoiceId: string, customer: string, amount: number, attempts: number) {
  const review = await openai.responses.create({
    model: 'gpt-4o',
    input: `Is it safe to retry charging invoice ${invoiceId}? Answer yes or no.`,
  });
  const isSafe = review.output_text.trim().toLowerCase() === 'yes'; // EXPECT-NOT: ADVISORY-ONLY-POLICY
  if (attempts > 1) {
    await approvals.enqueue({ invoiceId, customer, amount, modelSaysSafe: isSafe });
  }
}

export async function chargeApproved(invoiceId: string, customer: string, amount: number, approverId: string) {
  const approval = await approvals.get(invoiceId);
  if (approval.approvedBy === approverId && approval.approved) {
    await stripe.paymentIntents.create({ amount, currency: 'usd', customer, confirm: true });
  }
}
