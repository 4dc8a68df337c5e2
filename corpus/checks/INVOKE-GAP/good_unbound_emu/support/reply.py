"""Reply guidance: an unnamed decision evaluates the EMUs bound to no point."""

from memrail import AMIClient
from memrail.atoms import tag

client = AMIClient(project="support")


def guidance(sentiment: str):
    decision = client.decide(context=[tag("sentiment", sentiment)])
    return [item.action["directive"] for item in decision.selected]
