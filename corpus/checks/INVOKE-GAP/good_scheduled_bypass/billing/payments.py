"""Refunds go through Stripe; the API and the nightly job both decide first."""

from datetime import datetime, timezone

import stripe
from memrail import AMIClient
from memrail.atoms import event, state

client = AMIClient(project="billing")


def issue_refund(charge_id: str, amount_cents: int):
    refund = stripe.Refund.create(charge=charge_id, amount=amount_cents)
    client.emit_event(event("billing.issued.refund", ts=datetime.now(timezone.utc),
                            attributes={"charge_id": charge_id}), project="billing")
    return refund


def decided(item) -> bool:
    decision = client.decide(
        decision_point="billing.refund",
        context=[state("refund.request_id", item.id),
                 state("refund.amount_cents", item.amount_cents)],
    )
    return bool(decision.selected)


def handle_refund_request(request):
    if decided(request):
        return issue_refund(request.charge_id, request.amount_cents)
    return None


def nightly_retry_refunds(pending):
    for item in pending:
        if decided(item):
            issue_refund(item.charge_id, item.amount_cents)
