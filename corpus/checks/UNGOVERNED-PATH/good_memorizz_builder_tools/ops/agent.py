"""Twin of bad_memorizz_builder_tools: every side-effecting tool is governed with
`requires_approval=True` (listing it again in `with_tools` keeps that governance, as the seed's
own example does); the read-only tool needs no approval."""
import requests
import stripe
from memorizz import MemAgentBuilder, SQLiteApprovalStore, governed_tool
from memorizz.long_term.procedural.toolbox import Toolbox


@governed_tool(deterministic=False, side_effects=True, requires_approval=True,
               approval_reason="Creates an external customer record", domains=("crm",))
def create_customer(name: str, email: str) -> dict:
    return requests.post("https://crm.example.com/customers", json={"name": name, "email": email}).json()


@governed_tool(deterministic=False, side_effects=True, requires_approval=True,
               approval_reason="Refunds a charge", domains=("billing",))
def refund_charge(charge_id: str, amount_cents: int) -> dict:
    return stripe.Refund.create(charge=charge_id, amount=amount_cents)


def lookup_customer(customer_id: str) -> dict:
    return requests.get(f"https://crm.example.com/customers/{customer_id}").json()


toolbox = Toolbox.from_functions([create_customer, lookup_customer], memory_provider=None,
                                 agent_id="ops-agent", augment=False)

agent = (
    MemAgentBuilder()
    .with_name("Operations")
    .with_model("gpt-4.1")
    .with_tools([create_customer, refund_charge])
    .with_toolbox(toolbox)
    .with_approval_store(SQLiteApprovalStore("/var/lib/memorizz/approvals.db"))
    .build(validate=True)
)
