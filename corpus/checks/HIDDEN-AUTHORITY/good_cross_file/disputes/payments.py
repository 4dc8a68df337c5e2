import stripe


def refund(charge_id: str) -> None:
    stripe.Refund.create(charge=charge_id)  # EXPECT-NOT: UNGOVERNED-PATH  # EXPECT: RECORDING-GAP (no outcome event)
