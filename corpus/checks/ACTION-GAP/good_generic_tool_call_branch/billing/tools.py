"""The billing tools, in the app's own registry: a decorator files each under its name."""

import stripe

TOOLS = {}


def billing_tool(function):
    TOOLS[function.__name__] = function
    return function


@billing_tool
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"])
    return {"refund_id": refund.id}
