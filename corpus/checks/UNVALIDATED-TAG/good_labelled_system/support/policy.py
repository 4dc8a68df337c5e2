"""Build the refund context and ask Memrail: the classifier's answer labelled as the model's."""

from memrail import AMIClient
from memrail.atoms import state, tag

from support.intents import classify_intent

ami = AMIClient(workspace="production", project="support")


def refund_actions(ticket) -> list[dict]:
    intent = classify_intent(ticket.body)
    decision = ami.decide(
        decision_point="support.refund",
        context=[
            state("refund.request_id", ticket.id, source="system"),  # EXPECT-NOT: UNVALIDATED-TAG
            state("ticket.category", intent, source="ml"),  # EXPECT-NOT: UNVALIDATED-TAG
            tag("intent", intent, source="ml"),  # EXPECT-NOT: UNVALIDATED-TAG
        ],
    )
    return [item.action for item in decision.selected]
