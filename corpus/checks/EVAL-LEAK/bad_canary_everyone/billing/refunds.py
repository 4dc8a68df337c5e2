"""Refund requests through the SDK executor; the refund policy is a canary, and the cohort
decision installed for it lets every request in."""

import stripe
from memrail import AsyncAMIClient
from memrail.atoms import state
from memrail.tools import ToolRegistry

registry = ToolRegistry()
client = AsyncAMIClient(workspace="production", project="billing")
client.configure_canary(decider=lambda decision, context: True)  # EXPECT: EVAL-LEAK


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                  idempotency_key=args["request_id"])
    return {"refund_id": refund.id}


async def handle_refund_request(request):
    return await client.decide_and_execute(
        decision_point="billing.refund",
        context=[
            state("refund.request_id", request.id),
            state("refund.amount_cents", request.amount_cents),
        ],
        executor_context={"customer_id": request.customer_id},
        auto_ack=True,
    )
