"""Draft → human approval → send."""

import smtplib
from email.message import EmailMessage
from typing import TypedDict

from langchain_openai import ChatOpenAI
from langgraph.graph import END, StateGraph
from langgraph.types import interrupt

model = ChatOpenAI(model="gpt-4o-mini")


class Draft(TypedDict):
    to: str
    request: str
    body: str


def draft(state: Draft) -> dict:
    reply = model.invoke(f"Write a short reply to: {state['request']}")
    return {"body": reply.content}


def send(state: Draft) -> dict:
    decision = interrupt({"question": "Send this email?", "body": state["body"]})
    if decision.get("approved") is not True:
        return {"status": "cancelled"}
    message = EmailMessage()
    message["To"] = state["to"]
    message.set_content(state["body"])
    with smtplib.SMTP("localhost") as smtp:
        smtp.send_message(message)
    return {"status": "sent"}


builder = StateGraph(Draft)
builder.add_node("draft", draft)
builder.add_node("send", send)
builder.add_edge("draft", "send")
builder.add_edge("send", END)
