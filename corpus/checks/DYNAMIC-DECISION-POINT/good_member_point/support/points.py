"""Decision point names, fixed in code and reviewed with their EMUs."""

BILLING = "support.billing"


class Points:
    REFUND = "support.refund"
