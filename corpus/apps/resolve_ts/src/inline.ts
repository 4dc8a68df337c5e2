import OpenAI from "openai";
import Stripe from "stripe";

const openai = new OpenAI();
const stripe = new Stripe("sk_test");

async function verdict(ticket: string) {
  return (await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: ticket }] })).choices[0].message.content;
}

export async function refundIfTold(ticket: string, charge: string) {
  if ((await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: ticket }] })).choices[0].message.content === "refund") {
    await stripe.refunds.create({ charge });
  }
}

export async function refundByHelper(ticket: string, charge: string) {
  if ((await verdict(ticket)) === "refund") {
    await stripe.refunds.create({ charge });
  }
}

export async function refundIfServiceSays(ticket: string, charge: string) {
  if ((await (await fetch("https://rules.internal/refund?t=" + ticket)).json()).decision === "refund") {
    await stripe.refunds.create({ charge });
  }
}
