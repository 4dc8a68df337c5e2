"""Refund tools a human approves: always (`needs_approval=True`), or when a predicate asks."""
import stripe
from agents import Agent, RunContextWrapper, function_tool

REVIEW_ABOVE_CENTS = 5000


async def large_refund(ctx: RunContextWrapper, params: dict, call_id: str) -> bool:
    return params["amount_cents"] > REVIEW_ABOVE_CENTS


@function_tool(needs_approval=large_refund)
def refund_charge(charge_id: str, amount_cents: int) -> str:
    stripe.Refund.create(charge=charge_id, amount=amount_cents)  # EXPECT-NOT: UNGOVERNED-PATH
    return "refunded"


@function_tool(needs_approval=True)
def cancel_subscription(subscription_id: str) -> str:
    stripe.Subscription.cancel(subscription_id)  # EXPECT-NOT: UNGOVERNED-PATH
    return "cancelled"


billing_agent = Agent(name="billing", tools=[refund_charge, cancel_subscription])
