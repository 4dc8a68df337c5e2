"""Small refunds: decide on the request, refund through Stripe, record the refund."""

from datetime import datetime, timezone

import stripe
from memrail import AsyncAMIClient
from memrail.atoms import event, state, tag
from memrail.tools import ToolRegistry

client = AsyncAMIClient(workspace="production", project="billing")
registry = ToolRegistry()


def charge_for(request_id: str) -> str:
    return f"ch_{request_id}"


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=charge_for(args["request_id"]))
    await client.emit_event(
        event(
            "payment.completed.refund",
            ts=datetime.now(timezone.utc),
            attributes={"customer_id": args["customer_id"], "request_id": args["request_id"]},
        )
    )
    return {"refund_id": refund.id}


async def handle_refund(request, customer, intent):
    return await client.decide_and_execute(
        decision_point="billing.refund",
        context=[
            state("refund.request_id", request.id),
            state("refund.amount_cents", request.amount_cents),
            state("customer.id", customer.id),
            state("customer.blocked", customer.blocked),
            tag("refund_intent", intent),
        ],
    )
