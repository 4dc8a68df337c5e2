"""Refunds run by the SDK: Memrail selects `refund_payment`, the registry executes it."""

import stripe
from memrail import AsyncAMIClient
from memrail.atoms import state
from memrail.tools import ToolRegistry

registry = ToolRegistry()
ami = AsyncAMIClient(workspace="production", project="billing")


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"])  # EXPECT-NOT: RECORDING-GAP
    return {"refund_id": refund.id}


async def refund(ticket) -> None:
    await ami.decide_and_execute(
        decision_point="billing.refund",
        context=[state("refund.request_id", ticket.id),
                 state("refund.amount_cents", ticket.amount_cents)],
        auto_ack=True,
    )
