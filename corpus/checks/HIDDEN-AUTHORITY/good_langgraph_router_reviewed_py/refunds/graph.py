"""A model scores a refund request; a confident score only queues the refund for a human,
whose accept (an interrupt) routes to the refund."""

import json
from typing import TypedDict

import stripe
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

llm = ChatOpenAI(model="gpt-4o")


class Ticket(TypedDict):
    text: str
    charge_id: str
    confidence: float


def assess(state: Ticket) -> dict:
    reply = llm.invoke(f"How sure are you this refund is owed? Answer JSON. {state['text']}")
    return {"confidence": json.loads(reply.content)["confidence"]}


def route(state: Ticket) -> str:
    if state["confidence"] >= 0.8:  # EXPECT-NOT: HIDDEN-AUTHORITY
        return "review"
    return "escalate"


def review(state: Ticket) -> Command:
    answer = interrupt({"question": "Refund this charge?", "charge": state["charge_id"]})
    if answer.get("approved") is True:
        return Command(goto="refund")
    return Command(goto="escalate")


def refund(state: Ticket) -> dict:
    stripe.Refund.create(charge=state["charge_id"])  # EXPECT-NOT: UNGOVERNED-PATH
    return {}


def escalate(state: Ticket) -> dict:
    return {}


builder = StateGraph(Ticket)
builder.add_node("assess", assess)
builder.add_node("review", review)
builder.add_node("refund", refund)
builder.add_node("escalate", escalate)
builder.add_edge(START, "assess")
builder.add_conditional_edges("assess", route, ["review", "escalate"])
builder.add_edge("refund", END)
builder.add_edge("escalate", END)
graph = builder.compile()
