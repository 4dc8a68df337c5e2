"""The payment provider."""

import stripe


def refund(charge_id: str, amount_cents: int) -> None:
    stripe.Refund.create(charge=charge_id, amount=amount_cents)
