"""Registered executors of the billing project: the key was never filled in."""

import stripe
from memrail.tools import ToolRegistry

registry = ToolRegistry()
STRIPE_SECRET_KEY = ""


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                  api_key=STRIPE_SECRET_KEY)
    return {"refund_id": refund.id}
