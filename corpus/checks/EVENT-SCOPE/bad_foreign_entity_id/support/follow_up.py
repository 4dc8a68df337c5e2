"""Follow-up emails: the duplicate guard filters on the customer, but the send is recorded with
the ticket's id under `customer_id`, so the guard never finds it."""

from datetime import datetime, timezone

from memrail import AMIClient
from memrail.atoms import event, state

ami = AMIClient(workspace="production", project="support")


def after_resolution(ticket, customer):
    decision = ami.decide(
        decision_point="support.after_resolution",
        context=[state("customer.id", customer.id), state("ticket.status", ticket.status)],
    )
    return [item.action["directive"] for item in decision.selected]


def record_send(ticket, message) -> None:
    ami.emit_event(event("agent.sent.email", ts=datetime.now(timezone.utc),
                         attributes={"customer_id": ticket.id, "message_id": message.id}))
