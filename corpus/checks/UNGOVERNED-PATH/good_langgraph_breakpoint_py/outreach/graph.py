"""Draft an outreach message with a model; the graph pauses before the send node
(`interrupt_before`) until a human resumes it."""

from typing import TypedDict

from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from slack_sdk import WebClient

llm = ChatOpenAI(model="gpt-4o")
slack = WebClient(token="xoxb-test")


class Outreach(TypedDict):
    lead: str
    channel: str
    draft: str


def write_draft(state: Outreach) -> dict:
    reply = llm.invoke(f"Write a short intro message for {state['lead']}")
    return {"draft": reply.content}


def send(state: Outreach) -> dict:
    slack.chat_postMessage(channel=state["channel"], text=state["draft"])  # EXPECT-NOT: UNGOVERNED-PATH
    return {}


builder = StateGraph(Outreach)
builder.add_node("write_draft", write_draft)
builder.add_node("send", send)
builder.add_edge(START, "write_draft")
builder.add_edge("write_draft", "send")
builder.add_edge("send", END)
graph = builder.compile(interrupt_before=["send"])
