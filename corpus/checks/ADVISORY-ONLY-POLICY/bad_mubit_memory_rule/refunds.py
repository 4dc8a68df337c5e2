"""The refund limit lives only in a Mubit rule that learn.init() injects into the prompt."""

import os

import mubit.learn
import stripe
from anthropic import Anthropic
from mubit import Client

mubit.learn.init(api_key=os.environ["MUBIT_API_KEY"], agent_id="ari")
memory = Client(api_key=os.environ["MUBIT_API_KEY"])
memory.remember(session_id="support", intent="rule",
                content="Never refund more than $200 without a manager's approval.")
llm = Anthropic()
REFUND_TOOL = {"name": "refund", "description": "Refund a charge",
               "input_schema": {"type": "object", "properties": {"charge_id": {"type": "string"},
                                                                 "amount_cents": {"type": "integer"}}}}


def handle(message: str) -> None:
    response = llm.messages.create(model="claude-sonnet-4-5", max_tokens=1024, tools=[REFUND_TOOL],
                                   messages=[{"role": "user", "content": message}])
    for block in response.content:
        if block.type == "tool_use":
            stripe.Refund.create(charge=block.input["charge_id"], amount=block.input["amount_cents"])  # EXPECT: ADVISORY-ONLY-POLICY, UNGOVERNED-PATH
