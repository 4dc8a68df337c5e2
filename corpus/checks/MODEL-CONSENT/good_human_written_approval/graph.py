"""A review node asks a person (`interrupt`) and stores their answer; the pay node reads it."""
import stripe
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from typing_extensions import TypedDict


class RefundState(TypedDict):
    charge_id: str
    amount_cents: int
    approved: bool


def review(state: RefundState) -> dict:
    answer = interrupt({"question": f"Refund {state['amount_cents']} cents?"})
    return {"approved": answer == "yes"}


def pay(state: RefundState) -> dict:
    if state["approved"]:  # EXPECT-NOT: MODEL-CONSENT
        stripe.Refund.create(charge=state["charge_id"], amount=state["amount_cents"])
    return {}


builder = StateGraph(RefundState)
builder.add_node("review", review)
builder.add_node("pay", pay)
builder.add_edge(START, "review")
builder.add_edge("review", "pay")
builder.add_edge("pay", END)
graph = builder.compile()
