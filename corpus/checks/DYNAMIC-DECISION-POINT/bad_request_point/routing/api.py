"""POST /route: ask Memrail where a conversation should go next."""

from fastapi import FastAPI
from memrail import AsyncAMIClient
from memrail.atoms import state

app = FastAPI()
ami = AsyncAMIClient(workspace="production", project="support")


@app.post("/route")
async def route(body: dict) -> list[dict]:
    decision = await ami.decide(  # EXPECT: DYNAMIC-DECISION-POINT
        decision_point=body["decision_point"],
        context=[state("conversation.id", body["conversation_id"]),
                 state("customer.tier", body["tier"])],
    )
    return [item.action for item in decision.selected]
