"""Pick the response protocol for a ticket before the agent drafts a reply."""

from memrail import AMIClient
from memrail.atoms import state, tag

client = AMIClient(project="support")


def response_directives(ticket):
    decision = client.decide(  # EXPECT-NOT: ATOM-GAP
        decision_point="support.response_protocol",
        context=[state("ticket.id", ticket.id), tag("priority", ticket.priority)],
    )
    return [item.action["directive"] for item in decision.selected]
