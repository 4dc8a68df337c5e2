"""Two channels reach the same decision point; each builds its own context."""

from memrail import AMIClient
from memrail.atoms import state, tag

client = AMIClient(project="support")


def directives(decision):
    return [item.action["directive"] for item in decision.selected]


def reply_in_chat(session, intent):
    decision = client.decide(  # EXPECT-NOT: ATOM-GAP
        decision_point="support.reply",
        context=[state("customer.tier", session.customer.tier), tag("intent", intent)],
    )
    return directives(decision)


def reply_to_email(message, intent):
    decision = client.decide(  # EXPECT: ATOM-GAP
        decision_point="support.reply",
        context=[tag("intent", intent)],
    )
    return directives(decision)
