"""Refunds go through Stripe; the API decides first, the nightly job does not."""

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


def handle_refund_request(request):
    decision = client.decide(
        decision_point="billing.refund",
        context=[state("refund.request_id", request.id),
                 state("refund.amount_cents", request.amount_cents)],
    )
    if decision.selected:
        return issue_refund(request.charge_id, request.amount_cents)
    return None


def nightly_retry_refunds(pending):
    for item in pending:
        issue_refund(item.charge_id, item.amount_cents)  # EXPECT: INVOKE-GAP
