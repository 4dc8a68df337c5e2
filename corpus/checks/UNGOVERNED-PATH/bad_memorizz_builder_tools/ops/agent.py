"""Plain functions handed to a MemoRizz agent (seed 002, "Compose the complete runtime"): only
`@governed_tool(requires_approval=True)` pauses a side-effecting call for a human."""
import requests
import stripe
from memorizz import MemAgentBuilder, governed_tool
from memorizz.long_term.procedural.toolbox import Toolbox


def create_customer(name: str, email: str) -> dict:
    return requests.post("https://crm.example.com/customers", json={"name": name, "email": email}).json()  # EXPECT: UNGOVERNED-PATH


def refund_charge(charge_id: str, amount_cents: int) -> dict:
    return stripe.Refund.create(charge=charge_id, amount=amount_cents)  # EXPECT: UNGOVERNED-PATH


@governed_tool(deterministic=False, side_effects=True, requires_approval=False, domains=("crm",))
def close_account(customer_id: str) -> dict:
    return requests.delete(f"https://crm.example.com/customers/{customer_id}").json()  # EXPECT: UNGOVERNED-PATH


def lookup_customer(customer_id: str) -> dict:
    return requests.get(f"https://crm.example.com/customers/{customer_id}").json()


toolbox = Toolbox.from_functions([create_customer, lookup_customer], memory_provider=None,
                                 agent_id="ops-agent", augment=False)

agent = (
    MemAgentBuilder()
    .with_name("Operations")
    .with_model("gpt-4.1")
    .with_tools([refund_charge, close_account])
    .with_toolbox(toolbox)
    .build(validate=True)
)
