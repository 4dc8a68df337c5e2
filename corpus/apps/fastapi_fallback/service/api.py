"""POST /refunds: the model proposes, Memrail decides — unless Memrail is down."""

import json

import stripe
from fastapi import FastAPI
from memrail import AsyncAMIClient
from memrail.atoms import state
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
            context=[state("refund.amount_cents", proposal["amount_cents"])],
        )
    except Exception:
        stripe.Refund.create(charge=proposal["charge_id"], amount=proposal["amount_cents"])
        return {"status": "refunded (fallback)"}
    if decision.selected:
        stripe.Refund.create(charge=proposal["charge_id"], amount=proposal["amount_cents"])
        return {"status": "refunded"}
    return {"status": "declined"}
