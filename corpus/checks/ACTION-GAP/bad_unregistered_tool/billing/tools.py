"""Registered executors of the billing project."""

import stripe
from memrail.tools import ToolRegistry

registry = ToolRegistry()


@registry.tool(name="issue_refund", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"])
    return {"refund_id": refund.id}
