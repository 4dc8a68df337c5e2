"""Registered executors: refunds move money, follow-ups send email."""

import stripe
from memrail.tools import ToolRegistry

registry = ToolRegistry()


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["support"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"])
    return {"refund_id": refund.id}


@registry.tool(name="send_follow_up_email", description="Send the resolution follow-up",
               projects=["support"])
async def send_follow_up_email(args: dict) -> dict:
    return {"message_id": f"follow-up-{args['customer_id']}"}
