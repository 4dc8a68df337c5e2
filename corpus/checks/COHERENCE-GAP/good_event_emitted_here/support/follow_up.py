"""Follow-up emails: decided in the `support` project; the mailer's client works in the
`messaging` project but records the send in `support`, where the trigger reads it."""

from datetime import datetime, timezone

from memrail import AMIClient
from memrail.atoms import event, state

support = AMIClient(workspace="production", project="support")
mailer = AMIClient(workspace="production", project="messaging")


def after_resolution(ticket, customer):
    decision = support.decide(
        decision_point="support.after_resolution",
        context=[state("customer.id", customer.id), state("ticket.status", ticket.status)],
    )
    return [item.action["directive"] for item in decision.selected]


def record_send(customer, message) -> None:
    mailer.emit_event(event("agent.sent.email", ts=datetime.now(timezone.utc),
                            attributes={"customer_id": customer.id,
                                        "message_id": message.id}),
                      workspace="production", project="support")
