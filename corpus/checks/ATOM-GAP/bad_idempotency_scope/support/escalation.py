"""Escalation: the policy is scoped per ticket, but the caller never says which ticket."""

from memrail import AMIClient
from memrail.atoms import state, tag

client = AMIClient(project="support")


def maybe_escalate(ticket, sentiment: str):
    decision = client.decide(  # EXPECT: ATOM-GAP
        decision_point="support.escalation",
        context=[state("customer.id", ticket.customer_id), tag("sentiment", sentiment)],
    )
    return [item.action["directive"] for item in decision.selected]
