import os

import anthropic
import stripe
from mubit import Client

RUN = "nimbus:ticket-1088"
client = Client(api_key=os.environ["MUBIT_API_KEY"], run_id=RUN)
claude = anthropic.Anthropic()


def process_refund(ticket, amount: int):
    verdict = client.handoff(session_id=RUN, task_id=f"{ticket.id}-refund",  # EXPECT: AGENT-VERDICT
                             from_agent_id="ari", to_agent_id="rex", requested_action="approve",
                             content=f"Refund ${amount} to {ticket.customer}", await_verdict=True)
    if verdict == "approve":
        stripe.Refund.create(charge=ticket.charge_id, amount=amount)


def rex_review(event):
    reply = claude.messages.create(model="claude-haiku-4-5", max_tokens=5,
                                   messages=[{"role": "user", "content": f"Approve? {event}"}])
    client.feedback(session_id=RUN, handoff_id=event["payload"]["handoff_id"],  # EXPECT: AGENT-VERDICT
                    from_agent_id="rex", verdict=reply.content[0].text)
