"""Refunds selected by the `billing.refund` decision point."""

from datetime import datetime, timezone

import stripe
from memrail import AMIClient
from memrail.atoms import event, state

ami = AMIClient(workspace="production", project="billing")


def refund(ticket) -> None:
    decision = ami.decide(
        decision_point="billing.refund",
        context=[state("refund.request_id", ticket.id),
                 state("refund.amount_cents", ticket.amount_cents)],
    )
    for item in decision.selected:
        ami.emit_event(event("agent.issued.refund", ts=datetime.now(timezone.utc),
                             attributes={"request_id": ticket.id}))
        ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
        stripe.Refund.create(charge=ticket.charge_id, amount=ticket.amount_cents)  # EXPECT: RECORDING-GAP
