"""The human approves the email, but only when the model first calls it risky: the model
decides whether anyone reviews."""

import smtplib

from langchain_openai import ChatOpenAI
from langgraph.func import entrypoint
from langgraph.types import interrupt

llm = ChatOpenAI(model="gpt-4o")


@entrypoint()
def outreach(lead: dict) -> str:
    draft = llm.invoke(f"Write a follow-up email to {lead['name']}").content
    triage = llm.invoke(f"Is this email risky? Answer risky or fine.\n{draft}").content
    if triage == "risky":
        answer = interrupt({"question": "Send this email?", "draft": draft})  # EXPECT: AGENT-VERDICT
        if answer != "yes":
            return "held"
    with smtplib.SMTP("localhost") as server:
        server.sendmail("sales@example.com", lead["email"], draft)  # EXPECT: UNGOVERNED-PATH
    return "sent"
