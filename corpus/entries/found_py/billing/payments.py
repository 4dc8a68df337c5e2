"""The one money movement every entry below reaches."""

import stripe


def issue_refund(charge_id: str, amount_cents: int) -> None:
    stripe.Refund.create(charge=charge_id, amount=amount_cents)
