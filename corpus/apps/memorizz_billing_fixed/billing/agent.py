import stripe
from memorizz import MemAgentBuilder, SQLiteApprovalStore, governed_tool

from billing import outcomes


@governed_tool(deterministic=False, side_effects=True, requires_approval=True,
               approval_reason="Issues a customer refund", domains=("billing",))
def issue_refund(charge_id: str, amount_cents: int) -> dict:
    return stripe.Refund.create(charge=charge_id, amount=amount_cents)


@governed_tool(deterministic=True, side_effects=False, requires_approval=False, domains=("billing",))
def lookup_charge(charge_id: str) -> dict:
    return stripe.Charge.retrieve(charge_id)


agent = (
    MemAgentBuilder()
    .with_name("Billing")
    .with_model("claude-haiku-4-5")
    .with_tools([issue_refund, lookup_charge])
    .with_approval_store(SQLiteApprovalStore("/var/lib/billing/approvals.db"))
    .build()
)


def operator_review(operator, proposal_id: str):  # operator: the authenticated admin session
    agent.approve(proposal_id, approver_id=operator.email)
    resume = agent.resume_approval(proposal_id, continue_model=False)
    outcomes.record("billing.refund.completed", proposal_id, resume.tool_result)
