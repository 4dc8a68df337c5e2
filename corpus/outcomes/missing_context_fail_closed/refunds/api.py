"""The model proposes, Memrail decides: nothing selected or Memrail down, nothing runs."""

import json

import stripe
from memrail import AsyncAMIClient
from memrail.atoms import state
from memrail.errors import AMIError
from openai import AsyncOpenAI

llm = AsyncOpenAI()
ami = AsyncAMIClient(workspace="production", project="payments")


class PolicyUnavailable(Exception):
    pass


async def create_refund(request: dict) -> dict:
    completion = await llm.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "user", "content": request["message"]}],
        response_format={"type": "json_object"},
    )
    proposal = json.loads(completion.choices[0].message.content)
    try:
        decision = await ami.decide(
            decision_point="payments.refund",
            context=[
                state("refund.request_id", request["id"]),
                state("refund.amount_cents", proposal["amount_cents"]),
            ],
        )
    except AMIError:
        raise PolicyUnavailable("refund policy unavailable")
    for item in decision.selected:
        stripe.Refund.create(charge=proposal["charge_id"], amount=proposal["amount_cents"])
    return {"status": "decided"}
