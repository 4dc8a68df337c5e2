"""`governed_tool` from another library (Faramesh) must not be read as MemoRizz's gate."""
import stripe
from faramesh import governed_tool


@governed_tool(requires_approval=True)
def charge_card(customer_id: str, amount_cents: int) -> dict:
    return stripe.Charge.create(customer=customer_id, amount=amount_cents)
