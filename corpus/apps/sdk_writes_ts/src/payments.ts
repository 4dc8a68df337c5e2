import Stripe from 'stripe';

const stripe = new Stripe('sk_test');

export async function billing(customer: string, invoice: string, subscription: string) {
  await stripe.customers.create({ email: 'a@example.com' }); // W payments.ts.stripe money
  await stripe.invoices.finalizeInvoice(invoice); // W payments.ts.stripe money
  await stripe.billingPortal.sessions.create({ customer }); // W payments.ts.stripe money
  await stripe.billing.meterEvents.create({ event_name: 'tokens', payload: {} }); // W payments.ts.stripe money
  await stripe.subscriptions.cancel(subscription); // W sinks.ts.stripe money
  await stripe.invoiceItems.create({ customer, amount: 100 }); // W payments.ts.stripe money
  await stripe.refunds.create({ charge: 'ch_1', amount: 500 }); // W sinks.ts.stripe money
  await stripe.customers.list({ limit: 3 }); // R
  await stripe.customers.retrieve(customer); // R
  await stripe.invoices.search({ query: 'total>0' }); // R
  stripe.webhooks.constructEvent('{}', 'sig', 'whsec'); // R
}
