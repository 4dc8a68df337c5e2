"""Refund requests through the SDK executor; the new refund policy is evaluated in shadow,
and the executor is told to run shadow selections to compare their outcomes."""

import stripe
from memrail import AsyncAMIClient
from memrail.atoms import state
from memrail.tools import ActionExecutor, ShadowMode, ToolRegistry

registry = ToolRegistry()


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                  idempotency_key=args["request_id"])
    return {"refund_id": refund.id}


executor = ActionExecutor(registry, project="billing")
executor.configure_shadow(ShadowMode.EXECUTE_AND_COMPARE)  # EXPECT: EVAL-LEAK


async def handle_refund_request(request):
    async with AsyncAMIClient(workspace="production", project="billing") as client:
        decision = await client.decide(
            decision_point="billing.refund",
            context=[
                state("refund.request_id", request.id),
                state("refund.amount_cents", request.amount_cents),
            ],
        )
        return await executor.execute_decisions(decision.selected)
