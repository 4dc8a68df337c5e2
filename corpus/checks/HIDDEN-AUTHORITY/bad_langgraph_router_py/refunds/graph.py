"""A model scores a refund request; the graph's router refunds automatically when the model
is confident enough."""

import json
from typing import TypedDict

import stripe
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph

llm = ChatOpenAI(model="gpt-4o")


class Ticket(TypedDict):
    text: str
    charge_id: str
    confidence: float


def assess(state: Ticket) -> dict:
    reply = llm.invoke(f"How sure are you this refund is owed? Answer JSON. {state['text']}")
    return {"confidence": json.loads(reply.content)["confidence"]}


def route(state: Ticket) -> str:
    if state["confidence"] >= 0.8:  # EXPECT: HIDDEN-AUTHORITY
        return "refund"
    return "escalate"


def refund(state: Ticket) -> dict:
    stripe.Refund.create(charge=state["charge_id"])  # EXPECT: UNGOVERNED-PATH
    return {}


def escalate(state: Ticket) -> dict:
    return {}


builder = StateGraph(Ticket)
builder.add_node("assess", assess)
builder.add_node("refund", refund)
builder.add_node("escalate", escalate)
builder.add_edge(START, "assess")
builder.add_conditional_edges("assess", route, {"refund": "refund", "escalate": "escalate"})
builder.add_edge("refund", END)
builder.add_edge("escalate", END)
graph = builder.compile()
