"""Draft an outreach message with a model; the review node asks a human and records the
answer, but the graph goes on to the send node whatever the answer was."""

from typing import TypedDict

from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from slack_sdk import WebClient

llm = ChatOpenAI(model="gpt-4o")
slack = WebClient(token="xoxb-test")


class Outreach(TypedDict):
    lead: str
    channel: str
    draft: str
    reviewed: bool


def write_draft(state: Outreach) -> dict:
    reply = llm.invoke(f"Write a short intro message for {state['lead']}")
    return {"draft": reply.content}


def review(state: Outreach) -> dict:
    answer = interrupt({"question": "Send this message?", "draft": state["draft"]})
    if answer == "yes":
        return {"reviewed": True}
    return {"reviewed": False}


def send(state: Outreach) -> dict:
    slack.chat_postMessage(channel=state["channel"], text=state["draft"])  # EXPECT: UNGOVERNED-PATH
    return {}


builder = StateGraph(Outreach)
builder.add_node("write_draft", write_draft)
builder.add_node("review", review)
builder.add_node("send", send)
builder.add_edge(START, "write_draft")
builder.add_edge("write_draft", "review")
builder.add_edge("review", "send")
builder.add_edge("send", END)
graph = builder.compile()
