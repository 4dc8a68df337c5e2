// Dunning: the model reviews a retry, but the charge runs on the retry count alone.
import OpenAI from 'openai';
import Stripe from 'stripe';

const openai = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export async function retryCharge(invoiceId: string, customer: string, amount: number, attempts: number) {
  const review = await openai.responses.create({
    model: 'gpt-4o',
    input: `Is it safe to retry charging invoice ${invoiceId}? Answer yes or no.`,
  });
  const isSafe = review.output_text.trim().toLowerCase() === 'yes'; // EXPECT: ADVISORY-ONLY-POLICY
  const autoPay = attempts > 1;
  if (autoPay) {
    await stripe.paymentIntents.create({ amount, currency: 'usd', customer, confirm: true });
  }
}
