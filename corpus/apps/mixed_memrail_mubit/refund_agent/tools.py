"""Registered executors: the only code that moves money."""

import stripe
from memrail.tools import ToolRegistry

registry = ToolRegistry()


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["support"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"])
    return {"refund_id": refund.id}
