"""Build the refund context and ask Memrail: the classifier's answer vouched for as our own."""

from memrail import AMIClient
from memrail.atoms import state, tag

from support.intents import classify_intent

ami = AMIClient(workspace="production", project="support")


def refund_actions(ticket) -> list[dict]:
    intent = classify_intent(ticket.body)
    decision = ami.decide(
        decision_point="support.refund",
        context=[
            state("refund.request_id", ticket.id),
            state("ticket.category", intent, source="system"),  # EXPECT: UNVALIDATED-TAG
            tag("intent", intent, source="system"),  # EXPECT: UNVALIDATED-TAG
        ],
    )
    return [item.action for item in decision.selected]
