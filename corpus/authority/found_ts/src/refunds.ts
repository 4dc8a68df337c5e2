// Refund policy written in code: configuration, flags, roles, tiers and a database rule decide
// which refunds happen. None of it is a model's authority.
import Stripe from 'stripe';
import { PrismaClient } from '@prisma/client';
import * as LaunchDarkly from '@launchdarkly/node-server-sdk';
import { PostHog } from 'posthog-node';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const prisma = new PrismaClient();
const flags = LaunchDarkly.init(process.env.LD_SDK_KEY ?? '');
const posthog = new PostHog(process.env.POSTHOG_KEY ?? '');

export async function refundBySetting(charge: string, amount: number) {
  if (process.env.AUTO_REFUND === 'true') {
    await stripe.refunds.create({ charge, amount });
  }
}

export async function refundForAdmins(user: { role: string }, charge: string) {
  if (user.role !== 'admin') {
    throw new Error('admins only');
  }
  await stripe.refunds.create({ charge });
}

export async function refundForGold(customer: { tier: string }, charge: string) {
  if (customer.tier === 'gold') {
    await stripe.refunds.create({ charge });
  }
}

export async function refundWithinRule(charge: string, amount: number) {
  const rule = await prisma.refundRule.findFirst({ where: { active: true } });
  if (rule && amount <= rule.maxAutoRefundCents) {
    await stripe.refunds.create({ charge, amount });
  }
}

export async function refundByFlag(context: LaunchDarkly.LDContext, charge: string) {
  if (await flags.variation('auto-refunds', context, false)) {
    await stripe.refunds.create({ charge });
  }
}

export async function refundByExperiment(userId: string, charge: string) {
  if (await posthog.isFeatureEnabled('instant-refunds', userId)) {
    await stripe.refunds.create({ charge });
  }
}

export async function refundWithPermission(user: { hasPermission(p: string): boolean }, charge: string) {
  if (user.hasPermission('refunds:issue')) {
    await stripe.refunds.create({ charge });
  }
}
