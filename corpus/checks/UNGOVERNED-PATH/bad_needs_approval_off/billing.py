"""Billing tools whose approval is off: `needs_approval=False`, a predicate that never asks,
and one that asks only above a threshold (smaller refunds run without a human)."""
import stripe
from agents import Agent, RunContextWrapper, function_tool


REVIEW_ABOVE_CENTS = 5000


async def never_review(ctx: RunContextWrapper, params: dict, call_id: str) -> bool:
    return False


async def large_credit(ctx: RunContextWrapper, params: dict, call_id: str) -> bool:
    return params["amount_cents"] > REVIEW_ABOVE_CENTS


@function_tool(needs_approval=False)
def refund_charge(charge_id: str, amount_cents: int) -> str:
    stripe.Refund.create(charge=charge_id, amount=amount_cents)  # EXPECT: UNGOVERNED-PATH
    return "refunded"


@function_tool(needs_approval=never_review)
def cancel_subscription(subscription_id: str) -> str:
    stripe.Subscription.cancel(subscription_id)  # EXPECT: UNGOVERNED-PATH
    return "cancelled"


@function_tool(needs_approval=large_credit)
def credit_customer(customer_id: str, amount_cents: int) -> str:
    stripe.Customer.create_balance_transaction(customer_id, amount=-amount_cents, currency="usd")  # EXPECT: UNGOVERNED-PATH
    return "credited"


billing_agent = Agent(name="billing", tools=[refund_charge, cancel_subscription, credit_customer])
