"""Draft → human approval → send, plus a node where the model rewrites the stored writing
rules that every later draft follows, with nobody reviewing the new rules."""

from typing import TypedDict

from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Command, interrupt
from slack_sdk import WebClient

llm = ChatOpenAI(model="gpt-4o")
slack = WebClient(token="xoxb-test")
RULES = ("outreach", "rules")


class Outreach(TypedDict):
    lead: str
    channel: str
    draft: str
    feedback: str


def write_draft(state: Outreach, *, store: BaseStore) -> dict:
    rules = store.get(RULES, "style")
    guide = rules.value["text"] if rules else ""
    reply = llm.invoke([("system", f"Follow these rules: {guide}"),
                        ("user", f"Write a short intro message for {state['lead']}")])
    return {"draft": reply.content}


def review(state: Outreach) -> Command:
    decision = interrupt({"question": "Send this message?", "draft": state["draft"]})
    if decision["action"] == "accept":
        return Command(goto="send")
    return Command(goto="learn", update={"feedback": decision["feedback"]})


def learn(state: Outreach, *, store: BaseStore) -> dict:
    reply = llm.invoke([("system", "Rewrite the writing rules to follow this feedback."),
                        ("user", state["feedback"])])
    store.put(RULES, "style", {"text": reply.content})  # EXPECT: SELF-MODIFYING-AUTHORITY
    return {}


def send(state: Outreach) -> dict:
    slack.chat_postMessage(channel=state["channel"], text=state["draft"])  # EXPECT-NOT: UNGOVERNED-PATH
    return {}


builder = StateGraph(Outreach)
builder.add_node("write_draft", write_draft)
builder.add_node(review)
builder.add_node(learn)
builder.add_node("send", send)
builder.add_edge(START, "write_draft")
builder.add_edge("write_draft", "review")
builder.add_edge("learn", "write_draft")
builder.add_edge("send", END)
graph = builder.compile()
