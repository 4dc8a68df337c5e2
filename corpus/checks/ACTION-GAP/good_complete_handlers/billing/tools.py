"""Registered executors of the billing project, registered at start-up: the handler logs a
failure and raises it again, and reads its key from the environment."""

import logging
import os

import stripe
from memrail.tools import ToolRegistry

registry = ToolRegistry()
log = logging.getLogger(__name__)
STRIPE_SECRET_KEY = os.environ["STRIPE_SECRET_KEY"]


async def refund_payment(args: dict) -> dict:
    try:
        refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                      api_key=STRIPE_SECRET_KEY)
    except stripe.error.StripeError as error:
        log.warning("refund failed: %s", error)
        raise
    return {"refund_id": refund.id}


def register_tools() -> None:
    registry.register_tool("refund_payment", "Refund a settled charge", {"charge_id": str},
                           ["billing"], handler=refund_payment, timeout_ms=10000)
