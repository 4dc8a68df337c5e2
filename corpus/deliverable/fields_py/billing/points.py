"""Decision point names, held in one module and imported where the decisions are made."""

REFUND_POINT = "billing.refund"
AUDIT_POINT = "billing.audit"


class Points:
    """Points grouped on a class, read as `Points.GIFT`."""

    GIFT = "billing.gift"
