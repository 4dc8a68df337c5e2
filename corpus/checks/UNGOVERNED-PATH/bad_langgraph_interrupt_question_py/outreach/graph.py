"""Draft an outreach email with a model; the interrupt only asks for a sign-off line, and
whatever the human answers, the message is sent."""

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
    signature: str


def write_draft(state: Outreach) -> dict:
    reply = llm.invoke(f"Write a short intro message for {state['lead']}")
    return {"draft": reply.content}


def ask_signature(state: Outreach) -> dict:
    answer = interrupt({"question": "How should the message be signed?", "draft": state["draft"]})
    return {"signature": answer}


def send(state: Outreach) -> dict:
    text = f"{state['draft']}\n\n{state['signature']}"
    slack.chat_postMessage(channel=state["channel"], text=text)  # EXPECT: UNGOVERNED-PATH
    return {}


builder = StateGraph(Outreach)
builder.add_node("write_draft", write_draft)
builder.add_node("ask_signature", ask_signature)
builder.add_node("send", send)
builder.add_edge(START, "write_draft")
builder.add_edge("write_draft", "ask_signature")
builder.add_edge("ask_signature", "send")
builder.add_edge("send", END)
graph = builder.compile()
