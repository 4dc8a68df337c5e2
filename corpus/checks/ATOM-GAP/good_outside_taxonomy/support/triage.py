"""Triage: the model's priority is validated against the app's taxonomy, which the policy reads."""

import enum

from memrail import AMIClient
from memrail.atoms import state, tag

client = AMIClient(project="support")


class Priority(str, enum.Enum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


def triage(ticket, model_priority: str):
    priority = Priority(model_priority)
    decision = client.decide(
        decision_point="support.triage",
        context=[state("ticket.id", ticket.id), tag("priority", priority.value)],
    )
    return [item.action["directive"] for item in decision.selected]
