"""A review node lets the model write the approval into graph state; the pay node reads it."""
import stripe
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel
from typing_extensions import TypedDict

llm = ChatOpenAI(model="gpt-4o")


class Verdict(BaseModel):
    approved: bool
    reason: str


class RefundState(TypedDict):
    charge_id: str
    amount_cents: int
    message: str
    approved: bool


def review(state: RefundState) -> dict:
    verdict = llm.with_structured_output(Verdict).invoke(state["message"])
    return {"approved": verdict.approved}


def pay(state: RefundState) -> dict:
    if state["approved"]:  # EXPECT: MODEL-CONSENT
        stripe.Refund.create(charge=state["charge_id"], amount=state["amount_cents"])
    return {}


builder = StateGraph(RefundState)
builder.add_node("review", review)
builder.add_node("pay", pay)
builder.add_edge(START, "review")
builder.add_edge("review", "pay")
builder.add_edge("pay", END)
graph = builder.compile()
