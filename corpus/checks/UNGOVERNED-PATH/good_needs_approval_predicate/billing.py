"""Billing tools a human approves on every call: `needs_approval=True`, or a predicate that
always asks."""
import stripe
from agents import Agent, RunContextWrapper, function_tool


async def always_review(ctx: RunContextWrapper, params: dict, call_id: str) -> bool:
    print(f"refund {params} needs a reviewer")
    return True


@function_tool(needs_approval=always_review)
def refund_charge(charge_id: str, amount_cents: int) -> str:
    stripe.Refund.create(charge=charge_id, amount=amount_cents)  # EXPECT-NOT: UNGOVERNED-PATH
    return "refunded"


@function_tool(needs_approval=True)
def cancel_subscription(subscription_id: str) -> str:
    stripe.Subscription.cancel(subscription_id)  # EXPECT-NOT: UNGOVERNED-PATH
    return "cancelled"


billing_agent = Agent(name="billing", tools=[refund_charge, cancel_subscription])
