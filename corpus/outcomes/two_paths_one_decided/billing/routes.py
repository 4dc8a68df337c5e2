"""Two routes reach the refund helper; only the customer route asks the decision point."""

from memrail import AsyncAMIClient
from memrail.atoms import state

from billing.payments import issue_refund

ami = AsyncAMIClient(workspace="production", project="billing")


async def customer_refund(request) -> str:
    decision = await ami.decide(
        decision_point="billing.refund",
        context=[state("refund.request_id", request.id),
                 state("refund.amount_cents", request.amount_cents)],
    )
    if decision.selected:
        return issue_refund(request.charge_id, request.amount_cents)
    return "declined"


async def admin_refund(request) -> str:
    return issue_refund(request.charge_id, request.amount_cents)
