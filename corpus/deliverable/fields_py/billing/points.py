"""Decision point names, held in one module and imported where the decisions are made."""

REFUND_POINT = "billing.refund"
AUDIT_POINT = "billing.audit"
