"""The order agent: the model proposes a change; a slow control plane lets it through."""

import asyncio
import json

from memrail import AsyncAMIClient
from memrail.atoms import state
from openai import AsyncOpenAI

from orders.fulfilment import apply_change

llm = AsyncOpenAI()
ami = AsyncAMIClient(workspace="production", project="orders")


async def handle(message: str, order_id: str) -> str:
    response = await llm.responses.create(model="gpt-4o", input=message)
    change = json.loads(response.output_text)
    try:
        decision = await asyncio.wait_for(
            ami.decide(decision_point="orders.change",
                       context=[state("order.id", order_id),
                                state("order.change_cents", change["amount_cents"])]),
            timeout=2.0,
        )
    except asyncio.TimeoutError:
        apply_change(change)  # EXPECT: UNSAFE-FALLBACK
        return "applied without a decision"
    return "selected" if decision.selected else "declined"
