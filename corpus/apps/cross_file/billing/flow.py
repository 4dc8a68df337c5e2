"""Handle a dispute end to end."""

from billing import payments
from billing.classifier import assess
from billing.rules import should_refund


def handle_dispute(dispute) -> str:
    assessment = assess(dispute.text)
    if should_refund(assessment):
        payments.refund(dispute.charge_id, dispute.amount_cents)
        return "refunded"
    return "escalated"
