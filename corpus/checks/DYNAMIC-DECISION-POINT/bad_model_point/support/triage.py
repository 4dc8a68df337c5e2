"""Triage: the model names the queue, and the queue names the decision point."""

from anthropic import Anthropic
from memrail import AMIClient
from memrail.atoms import state

llm = Anthropic()
ami = AMIClient(workspace="production", project="support")


def triage(ticket) -> list[dict]:
    reply = llm.messages.create(
        model="claude-haiku-4-5",
        max_tokens=10,
        messages=[{"role": "user", "content": f"Which queue (billing, tech, sales)? {ticket.body}"}],
    )
    queue = reply.content[0].text.strip()
    decision = ami.decide(  # EXPECT: DYNAMIC-DECISION-POINT
        decision_point=f"support.{queue}",
        context=[state("ticket.id", ticket.id)],
    )
    return [item.action for item in decision.selected]
