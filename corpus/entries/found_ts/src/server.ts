// HTTP ways in: a Stripe webhook verified by its signature, and a plain route.
import express from 'express';
import Stripe from 'stripe';
import { issueRefund } from './payments';

const app = express();
const stripe = new Stripe(process.env.STRIPE_KEY ?? '');

app.post('/stripe/events', express.raw({ type: 'application/json' }), async (req, res) => {
  const event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'] as string, 'whsec_x');
  await issueRefund((event.data.object as { charge: string }).charge, 100);
  res.json({ ok: true });
});

app.post('/refunds', async (req, res) => {
  await issueRefund(req.body.charge, req.body.amount);
  res.json({ ok: true });
});

const admin = express.Router();
admin.post('/refunds/retry', async (req, res) => {
  await issueRefund(req.body.charge, 100);
  res.json({ ok: true });
});
app.use('/admin', admin);
