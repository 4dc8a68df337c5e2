"""Twin of bad_memorizz_confirm_parameter: consent is the host's `approve(...)` on a stored
proposal, not a tool argument."""
import requests
from memorizz import MemAgentBuilder, SQLiteApprovalStore, governed_tool


@governed_tool(deterministic=False, side_effects=True, requires_approval=True,
               approval_reason="Emails a customer", domains=("crm",))
def send_invoice_email(customer_id: str, body: str) -> str:
    return requests.post("https://mail.example.com/send", json={"to": customer_id, "body": body}).text


@governed_tool(deterministic=False, side_effects=True, requires_approval=True, domains=("crm",))
def delete_customer(customer_id: str) -> dict:
    return requests.delete(f"https://crm.example.com/customers/{customer_id}").json()


agent = (
    MemAgentBuilder()
    .with_model("gpt-4.1")
    .with_tools([send_invoice_email, delete_customer])
    .with_approval_store(SQLiteApprovalStore("/var/lib/memorizz/approvals.db"))
    .build()
)


def operator_review(operator, proposal_id: str):  # operator: the authenticated admin session
    agent.approve(proposal_id, approver_id=operator.email)
    agent.resume_approval(proposal_id, continue_model=False)
