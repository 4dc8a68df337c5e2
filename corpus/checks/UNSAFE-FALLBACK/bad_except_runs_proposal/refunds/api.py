"""POST /refunds: the model proposes, Memrail decides; when Memrail is down, the proposal runs."""

import json
from datetime import datetime, timezone

import stripe
from fastapi import FastAPI, HTTPException
from memrail import AsyncAMIClient
from memrail.atoms import event, state
from memrail.errors import AMIError
from openai import AsyncOpenAI

app = FastAPI()
llm = AsyncOpenAI()
ami = AsyncAMIClient(workspace="production", project="payments")


@app.post("/refunds")
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
        stripe.Refund.create(charge=proposal["charge_id"], amount=proposal["amount_cents"])  # EXPECT: UNSAFE-FALLBACK, UNGOVERNED-PATH
        return {"status": "refunded"}
    for item in decision.selected:
        stripe.Refund.create(charge=proposal["charge_id"], amount=proposal["amount_cents"])
        await ami.emit_event(event("agent.issued.refund", ts=datetime.now(timezone.utc),
                                   attributes={"request_id": request["id"]}))
        await ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
    return {"status": "decided"}
