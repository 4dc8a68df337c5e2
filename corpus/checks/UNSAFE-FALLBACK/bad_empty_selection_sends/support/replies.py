"""Reply drafting: a matching policy holds the reply; when none matches, the draft is sent."""

import smtplib
from datetime import datetime, timezone

from anthropic import Anthropic
from memrail import AMIClient
from memrail.atoms import event, state

llm = Anthropic()
ami = AMIClient(workspace="production", project="support")
SENDER = "support@example.com"


def reply_to(ticket) -> str:
    draft = llm.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=800,
        messages=[{"role": "user", "content": f"Reply to this ticket: {ticket.body}"}],
    )
    body = draft.content[0].text
    decision = ami.decide(
        decision_point="support.send_reply",
        context=[state("ticket.id", ticket.id), state("ticket.priority", ticket.priority)],
    )
    if decision.selected:
        return "held for review"
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail(SENDER, [ticket.customer_email], body)  # EXPECT: UNSAFE-FALLBACK
    ami.emit_event(event("agent.sent.reply", ts=datetime.now(timezone.utc),
                         attributes={"ticket_id": ticket.id}))
    return "sent"
