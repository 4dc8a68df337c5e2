"""Follow-up emails: decided in the `support` project, but the send is recorded by the mailer's
own client, in the `messaging` project, where the support trigger never looks."""

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
                                        "message_id": message.id}))
