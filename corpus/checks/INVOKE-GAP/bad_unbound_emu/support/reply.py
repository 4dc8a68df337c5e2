"""Reply guidance: every decision names its point, so an unbound EMU is never evaluated."""

from memrail import AMIClient
from memrail.atoms import tag

client = AMIClient(project="support")


def guidance(sentiment: str):
    decision = client.decide(decision_point="support.reply", context=[tag("sentiment", sentiment)])
    return [item.action["directive"] for item in decision.selected]
