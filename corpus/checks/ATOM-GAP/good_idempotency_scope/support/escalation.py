"""Escalation: the scope key the policy is idempotent on is supplied on the call."""

from memrail import AMIClient
from memrail.atoms import state, tag

client = AMIClient(project="support")


def maybe_escalate(ticket, sentiment: str):
    decision = client.decide(
        decision_point="support.escalation",
        context=[
            state("customer.id", ticket.customer_id),
            state("ticket.id", ticket.id),
            tag("sentiment", sentiment),
        ],
    )
    return [item.action["directive"] for item in decision.selected]
