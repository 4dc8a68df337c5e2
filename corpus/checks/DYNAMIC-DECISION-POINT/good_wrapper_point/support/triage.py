"""Triage: each caller names its decision point; the wrapper only builds the context."""

from memrail import AMIClient
from memrail.atoms import state

from support.points import BILLING

ami = AMIClient(workspace="production", project="support")


def ask(point: str, ticket) -> list[dict]:
    decision = ami.decide(  # EXPECT-NOT: DYNAMIC-DECISION-POINT
        decision_point=point,
        context=[state("ticket.id", ticket.id), state("ticket.priority", ticket.priority)],
    )
    return [item.action for item in decision.selected]


def billing_actions(ticket) -> list[dict]:
    return ask(BILLING, ticket)


def tech_actions(ticket) -> list[dict]:
    return ask("support.tech", ticket=ticket)
