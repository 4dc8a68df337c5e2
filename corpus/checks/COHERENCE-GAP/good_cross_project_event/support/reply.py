"""Guidance for the reply the support agent is about to draft."""

from memrail import AMIClient
from memrail.atoms import state

client = AMIClient(project="support")


def reply_directives(customer):
    decision = client.decide(decision_point="support.reply",
                             context=[state("customer.id", customer.id)])
    return [item.action["directive"] for item in decision.selected]
