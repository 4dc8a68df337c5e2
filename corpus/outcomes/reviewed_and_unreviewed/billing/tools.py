"""The refund executor, registered with Memrail: it runs only when an EMU selects it."""

import stripe
from memrail.tools import ToolRegistry

registry = ToolRegistry()


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"])
    return {"refund_id": refund.id}


@registry.on_decision_prompt
async def ask_reviewer(prompt: dict, options: dict) -> dict:
    """Large refunds: the decision point asks the on-call reviewer queue."""
    return {"queued": True, "prompt": prompt}
