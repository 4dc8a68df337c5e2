"""Back-office actions for support staff."""

from memrail import AsyncAMIClient
from memrail.atoms import state

from billing.tools import refund_payment


async def force_refund(ticket):
    async with AsyncAMIClient(workspace="production", project="billing") as client:
        decision = await client.decide(
            decision_point="billing.refund",
            context=[state("refund.request_id", ticket.id),
                     state("refund.amount_cents", ticket.amount_cents)],
        )
        if not decision.selected:
            return None
        result = await refund_payment({"charge_id": ticket.charge_id,  # EXPECT-NOT: INVOKE-GAP
                                       "amount_cents": ticket.amount_cents})
        await client.ack(decision.selected[0].activation_id, "acknowledged", code="SUCCESS")
        return result
