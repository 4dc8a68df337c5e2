"""Triage: decision points read as members of the module and the class that hold them."""

from memrail import AMIClient
from memrail.atoms import state

from support import points
from support.points import Points

ami = AMIClient(workspace="production", project="support")


def billing_actions(ticket) -> list[dict]:
    decision = ami.decide(  # EXPECT-NOT: DYNAMIC-DECISION-POINT
        decision_point=points.BILLING,
        context=[state("ticket.id", ticket.id)],
    )
    return [item.action for item in decision.selected]


def refund_actions(ticket) -> list[dict]:
    decision = ami.decide(  # EXPECT-NOT: DYNAMIC-DECISION-POINT
        decision_point=Points.REFUND,
        context=[state("ticket.id", ticket.id)],
    )
    return [item.action for item in decision.selected]
