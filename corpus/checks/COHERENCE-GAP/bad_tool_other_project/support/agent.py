"""The support agent's refund flow: decide in the support project, execute the selection."""

from memrail import AsyncAMIClient
from memrail.atoms import state


async def handle_refund(ticket):
    async with AsyncAMIClient(workspace="production", project="support") as client:
        return await client.decide_and_execute(
            decision_point="support.refund",
            context=[
                state("refund.request_id", ticket.id),
                state("refund.amount_cents", ticket.amount_cents),
            ],
            auto_ack=True,
        )
