"""Refund tools whose approval is switched off: `needs_approval=False`, or a predicate that
never asks."""
import stripe
from agents import Agent, RunContextWrapper, function_tool


async def never_review(ctx: RunContextWrapper, params: dict, call_id: str) -> bool:
    return False


@function_tool(needs_approval=False)
def refund_charge(charge_id: str, amount_cents: int) -> str:
    stripe.Refund.create(charge=charge_id, amount=amount_cents)  # EXPECT: UNGOVERNED-PATH
    return "refunded"


@function_tool(needs_approval=never_review)
def cancel_subscription(subscription_id: str) -> str:
    stripe.Subscription.cancel(subscription_id)  # EXPECT: UNGOVERNED-PATH
    return "cancelled"


billing_agent = Agent(name="billing", tools=[refund_charge, cancel_subscription])
