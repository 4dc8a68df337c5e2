"""Refunds selected by the `billing.refund` decision point; success and failure are recorded
apart, so a failed refund is never acknowledged as done."""

import logging
from datetime import datetime, timezone

import stripe
from memrail import AMIClient
from memrail.atoms import event, state

log = logging.getLogger(__name__)
ami = AMIClient(workspace="production", project="billing")


def refund(ticket) -> None:
    decision = ami.decide(
        decision_point="billing.refund",
        context=[state("refund.request_id", ticket.id),
                 state("refund.amount_cents", ticket.amount_cents)],
    )
    for item in decision.selected:
        try:
            stripe.Refund.create(charge=ticket.charge_id, amount=ticket.amount_cents)  # EXPECT-NOT: RECORDING-GAP
        except stripe.StripeError:
            log.exception("refund %s failed", ticket.id)
            ami.ack(item.activation_id, "failed", code="STRIPE_ERROR")
            continue
        ami.emit_event(event("agent.issued.refund", ts=datetime.now(timezone.utc),
                             attributes={"request_id": ticket.id}))
        ami.ack(item.activation_id, "acknowledged", code="SUCCESS")


def credit(ticket) -> None:
    decision = ami.decide(
        decision_point="billing.credit",
        context=[state("credit.request_id", ticket.id)],
    )
    for item in decision.selected:
        try:
            stripe.CreditNote.create(invoice=ticket.invoice_id, amount=ticket.amount_cents)  # EXPECT-NOT: RECORDING-GAP
            ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
        finally:
            log.info("credit %s handled", ticket.id)
