"""The one helper that moves money."""

import stripe


def issue_refund(charge_id: str, amount_cents: int) -> str:
    refund = stripe.Refund.create(charge=charge_id, amount=amount_cents)
    return refund.id
