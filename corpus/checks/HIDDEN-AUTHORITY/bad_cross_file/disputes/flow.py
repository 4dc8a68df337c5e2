from disputes.assess import assess
from disputes.payments import refund
from disputes.rules import should_refund


def handle(dispute) -> str:
    if should_refund(assess(dispute.text)):
        refund(dispute.charge_id)
        return "refunded"
    return "escalated"
