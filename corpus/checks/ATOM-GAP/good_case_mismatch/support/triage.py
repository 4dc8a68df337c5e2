"""Gold customers' tickets are given their tier in lower case, as the policy reads it."""

from memrail import AMIClient
from memrail.atoms import state

client = AMIClient(project="support")


def triage_gold(ticket):
    decision = client.decide(
        decision_point="support.triage",
        context=[state("ticket.id", ticket.id), state("customer.tier", "gold")],
    )
    return [item.action["directive"] for item in decision.selected]
