"""Refund requests: decide, then run the selected tool through the app's own tool table."""

from memrail import AsyncAMIClient
from memrail.atoms import state

from billing.tools import TOOLS


async def refund_request(request):
    async with AsyncAMIClient(workspace="production", project="billing") as client:
        decision = await client.decide(
            decision_point="billing.refund",
            context=[
                state("refund.request_id", request.id),
                state("refund.amount_cents", request.amount_cents),
            ],
        )
    for item in decision.selected:
        if item.action["type"] == "tool_call":
            spec = item.action["tool"]
            await TOOLS[spec["tool_id"]](spec.get("args", {}))
    return decision
