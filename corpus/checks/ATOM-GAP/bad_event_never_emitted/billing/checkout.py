"""Checkout asks for guidance; the order flow records nothing the policy counts."""

from datetime import datetime, timezone

from memrail import AMIClient
from memrail.atoms import event, state

client = AMIClient(project="billing")


def guidance(customer):
    decision = client.decide(
        decision_point="billing.checkout",
        context=[state("customer.id", customer.id)],
    )
    return [item.action["directive"] for item in decision.selected]


def record_cart(customer):
    client.emit_event(
        event("customer.created.cart", ts=datetime.now(timezone.utc),
              attributes={"customer_id": customer.id}),
        project="billing",
    )
