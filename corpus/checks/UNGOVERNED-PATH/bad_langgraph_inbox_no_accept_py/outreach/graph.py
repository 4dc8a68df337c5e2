"""Draft an outreach message with a model; the Agent Inbox request only lets the human
respond with notes (`allow_accept: False`): the answer routes, but nothing can be accepted,
and the message is sent either way."""

from typing import TypedDict

from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from slack_sdk import WebClient

llm = ChatOpenAI(model="gpt-4o")
slack = WebClient(token="xoxb-test")


class Outreach(TypedDict):
    lead: str
    channel: str
    draft: str
    notes: str


def write_draft(state: Outreach) -> dict:
    reply = llm.invoke(f"Write a short intro message for {state['lead']}")
    return {"draft": reply.content}


def notify(state: Outreach) -> Command:
    request = {
        "action_request": {"action": "Outreach going out", "args": {"draft": state["draft"]}},
        "config": {"allow_accept": False, "allow_edit": False, "allow_ignore": False,
                   "allow_respond": True},
        "description": "This message will be sent; add notes for the log if you like.",
    }
    response = interrupt(request)
    if response["type"] == "response":
        return Command(goto="send", update={"notes": response["args"]})
    return Command(goto="send")


def send(state: Outreach) -> dict:
    slack.chat_postMessage(channel=state["channel"], text=state["draft"])  # EXPECT: UNGOVERNED-PATH
    return {}


builder = StateGraph(Outreach)
builder.add_node("write_draft", write_draft)
builder.add_node(notify)
builder.add_node("send", send)
builder.add_edge(START, "write_draft")
builder.add_edge("write_draft", "notify")
builder.add_edge("send", END)
graph = builder.compile()
