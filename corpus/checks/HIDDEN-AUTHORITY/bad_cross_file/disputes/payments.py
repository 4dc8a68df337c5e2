import stripe


def refund(charge_id: str) -> None:
    stripe.Refund.create(charge=charge_id)  # EXPECT: UNGOVERNED-PATH
