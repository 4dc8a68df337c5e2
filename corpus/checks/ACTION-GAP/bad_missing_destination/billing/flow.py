"""Refund requests: build the context, decide, let the registered executor act."""

from memrail import AsyncAMIClient
from memrail.atoms import state, tag


async def refund_request(request):
    async with AsyncAMIClient(workspace="production", project="billing") as client:
        return await client.decide_and_execute(
            decision_point="billing.refund",
            context=[
                state("refund.request_id", request.id),
                state("refund.amount_cents", request.amount_cents),
            ],
            auto_ack=True,
        )
