"""Router: the model's intent is validated against the app's Literal taxonomy, which the policy reads."""

from typing import Literal

from memrail import AMIClient
from memrail.atoms import state, tag
from pydantic import TypeAdapter

Intent = Literal["refund_request", "billing", "other"]
client = AMIClient(project="support")


def route(ticket, model_intent: str):
    intent = TypeAdapter(Intent).validate_python(model_intent)
    decision = client.decide(
        decision_point="support.route",
        context=[state("ticket.id", ticket.id), tag("intent", intent)],
    )
    return [item.action["directive"] for item in decision.selected]
