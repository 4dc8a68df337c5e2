"""Screen refund requests for fraud; the selected EMU decides where the request goes."""

from memrail import AsyncAMIClient
from memrail.atoms import state, tag
from memrail.tools import ToolRegistry

registry = ToolRegistry()


async def screen_for_fraud(request):
    async with AsyncAMIClient(workspace="production", project="billing") as client:
        return await client.decide_and_execute(
            decision_point="billing.fraud",
            context=[state("refund.request_id", request.id), tag("risk", request.risk_band)],
            auto_ack=True,
        )


@registry.on_route
async def send_to_review_queue(destination, metadata):
    return {"queued": destination}
