"""Stripe in every client style, and the other payment SDKs: writes next to reads."""

import stripe
from stripe import StripeClient
import square
from plaid.api import plaid_api
from coinbase.wallet.client import Client as CoinbaseClient


def stripe_module_style(customer_id: str, invoice_id: str) -> None:
    stripe.Customer.create(email="a@example.com")  # W payments.stripe money
    stripe.Product.create(name="Seat")  # W payments.stripe money
    stripe.PaymentLink.create(line_items=[])  # W payments.stripe money
    stripe.Invoice.finalize_invoice(invoice_id)  # W payments.stripe money
    stripe.billing_portal.Session.create(customer=customer_id)  # W payments.stripe money
    stripe.billing.MeterEvent.create(event_name="tokens")  # W payments.stripe money
    stripe.Refund.create(charge="ch_1", amount=500)  # W sinks.stripe money
    stripe.Customer.list(limit=3)  # R
    stripe.Customer.retrieve(customer_id)  # R
    stripe.Customer.search(query="email:'a'")  # R
    stripe.Webhook.construct_event("{}", "sig", "whsec")  # R


def stripe_client_style(subscription_id: str) -> None:
    client = StripeClient("sk_test")
    client.v1.subscriptions.cancel(subscription_id)  # W payments.stripe money
    client.v1.invoices.finalize_invoice("in_1")  # W payments.stripe money
    client.v1.coupons.create(params={"percent_off": 10})  # W payments.stripe money
    client.v1.subscriptions.list()  # R
    client.v1.invoices.created_at()  # R


def other_payments(amount: int) -> None:
    sq = square.Square(token="t")
    sq.payments.create(amount_money={"amount": amount})  # W payments.square money
    sq.payments.list()  # R
    plaid = plaid_api.PlaidApi(None)
    plaid.transfer_create({"amount": str(amount)})  # W payments.plaid money
    plaid.transfer_get({"transfer_id": "t"})  # R
    coinbase = CoinbaseClient("k", "s")
    coinbase.send_money("acct", to="addr", amount=str(amount))  # W payments.coinbase money
    coinbase.buy("acct", amount=str(amount))  # W payments.coinbase money
    coinbase.get_accounts()  # R
