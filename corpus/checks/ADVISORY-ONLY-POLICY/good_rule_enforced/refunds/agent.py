"""A refund agent whose refund limit is written in its system prompt."""

from datetime import datetime, timezone

import stripe
from anthropic import Anthropic
from memrail import AMIClient
from memrail.atoms import event, state

SYSTEM_PROMPT = (
    "You are a support agent for Acme. You can refund charges with the refund tool. "
    "Never refund more than $200 without a manager's approval."
)
REFUND_TOOL = {
    "name": "refund",
    "description": "Refund a charge",
    "input_schema": {"type": "object", "properties": {"charge_id": {"type": "string"},
                                                      "amount_cents": {"type": "integer"}}},
}
llm = Anthropic()
ami = AMIClient(workspace="production", project="support")


def handle(message: str) -> None:
    response = llm.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        system=SYSTEM_PROMPT,
        tools=[REFUND_TOOL],
        messages=[{"role": "user", "content": message}],
    )
    for block in response.content:
        if block.type == "tool_use":
            decision = ami.decide(
                decision_point="support.refund",
                context=[state("refund.charge_id", block.input["charge_id"]),
                         state("refund.amount_cents", block.input["amount_cents"])],
            )
            if not decision.selected:
                continue
            stripe.Refund.create(charge=block.input["charge_id"], amount=block.input["amount_cents"])  # EXPECT-NOT: ADVISORY-ONLY-POLICY, UNGOVERNED-PATH
            ami.emit_event(event("agent.issued.refund", ts=datetime.now(timezone.utc),
                                 attributes={"charge_id": block.input["charge_id"]}))
