"""Executes an order change; the only code that talks to the payment provider."""

import stripe


def apply_change(change: dict) -> None:
    stripe.Refund.create(payment_intent=change["payment_intent"], amount=change["amount_cents"])  # EXPECT: UNGOVERNED-PATH
