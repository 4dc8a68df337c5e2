"""The same Mubit rule, now only guidance: a Memrail decision point enforces the limit."""

import os
from datetime import datetime, timezone

import mubit.learn
import stripe
from anthropic import Anthropic
from memrail import AMIClient
from memrail.atoms import event, state
from mubit import Client

mubit.learn.init(api_key=os.environ["MUBIT_API_KEY"], agent_id="ari")
memory = Client(api_key=os.environ["MUBIT_API_KEY"])
memory.remember(session_id="support", intent="rule",
                content="Never refund more than $200 without a manager's approval.")
llm = Anthropic()
ami = AMIClient(workspace="production", project="support")
REFUND_TOOL = {"name": "refund", "description": "Refund a charge",
               "input_schema": {"type": "object", "properties": {"charge_id": {"type": "string"},
                                                                 "amount_cents": {"type": "integer"}}}}


def handle(message: str) -> None:
    response = llm.messages.create(model="claude-sonnet-4-5", max_tokens=1024, tools=[REFUND_TOOL],
                                   messages=[{"role": "user", "content": message}])
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
