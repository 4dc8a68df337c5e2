"""Registered executors of the billing project, registered at start-up."""

import logging

import stripe
from memrail.tools import ToolRegistry

registry = ToolRegistry()
log = logging.getLogger(__name__)


async def refund_payment(args: dict) -> dict:
    try:
        refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"])
    except stripe.error.StripeError as error:
        log.warning("refund failed: %s", error)
        return {"status": "error", "message": str(error)}
    return {"refund_id": refund.id}


def register_tools() -> None:
    registry.register_tool("refund_payment", "Refund a settled charge", {"charge_id": str},
                           ["billing"], handler=refund_payment, timeout_ms=10000)
