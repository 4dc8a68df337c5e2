"""Screen refund requests for fraud with a custom dispatcher for the selected actions."""

from memrail import AsyncAMIClient
from memrail.atoms import state, tag

from billing.queues import enqueue


async def screen_for_fraud(request):
    async with AsyncAMIClient(workspace="production", project="billing") as client:
        decision = await client.decide(
            decision_point="billing.fraud",
            context=[state("refund.request_id", request.id), tag("risk", request.risk_band)],
        )
    for item in decision.selected:
        if item.action["type"] == "route":
            await enqueue(item.action["destination"], request.id)
    return decision
