"""A matching policy holds the reply; when nothing matches (context missing), it is sent."""

import smtplib

from anthropic import Anthropic
from memrail import AMIClient
from memrail.atoms import state

llm = Anthropic()
ami = AMIClient(workspace="production", project="support")
SENDER = "support@example.com"


def reply_to(ticket) -> str:
    draft = llm.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=800,
        messages=[{"role": "user", "content": f"Reply to this ticket: {ticket.body}"}],
    )
    decision = ami.decide(
        decision_point="support.send_reply",
        context=[state("ticket.id", ticket.id), state("ticket.priority", ticket.priority)],
    )
    if decision.selected:
        return "held for review"
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail(SENDER, [ticket.customer_email], draft.content[0].text)
    return "sent"
