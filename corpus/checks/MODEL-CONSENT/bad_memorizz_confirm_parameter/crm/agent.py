"""Seed 002: "approved and confirm are not model-visible arguments". A tool whose own
parameter is the consent lets the model consent for the user."""
import requests
from memorizz import MemAgentBuilder, governed_tool
from memorizz.long_term.procedural.toolbox import Toolbox


def send_invoice_email(customer_id: str, body: str, confirm: bool = False) -> str:  # EXPECT: MODEL-CONSENT
    if confirm:
        return requests.post("https://mail.example.com/send", json={"to": customer_id, "body": body}).text  # EXPECT: UNGOVERNED-PATH
    return "Please confirm before sending."


@governed_tool(deterministic=False, side_effects=True, requires_approval=False, domains=("crm",))
def delete_customer(customer_id: str, approved: bool = False) -> dict:  # EXPECT: MODEL-CONSENT
    if not approved:
        return {"status": "ask the user first"}
    return requests.delete(f"https://crm.example.com/customers/{customer_id}").json()  # EXPECT: UNGOVERNED-PATH


agent = (
    MemAgentBuilder()
    .with_model("gpt-4.1")
    .with_toolbox(Toolbox.from_functions([send_invoice_email], agent_id="crm-agent", augment=False))
    .with_tools([delete_customer])
    .build()
)
