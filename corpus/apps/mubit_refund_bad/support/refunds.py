import os

import anthropic
import stripe
from mubit import Client

RUN = "nimbus:ticket-1088"
client = Client(api_key=os.environ["MUBIT_API_KEY"], run_id=RUN, transport="http")
claude = anthropic.Anthropic()

# The only "policy" for refunds is a prompt-injected rule.
client.remember(session_id=RUN, content="Never issue refunds above $500 without reviewer approval.",
                intent="rule")


def process_refund(ticket, amount: int):
    prior = client.recall(session_id=RUN, query=f"refund already issued for {ticket.id}",
                          entry_types=["trace"], evidence_only=True)
    if not prior.get("evidence"):
        verdict = client.handoff(session_id=RUN, task_id=f"{ticket.id}-refund",
                                 from_agent_id="ari", to_agent_id="rex",
                                 requested_action="approve",
                                 content=f"Refund ${amount} to {ticket.customer}",
                                 await_verdict=True)
        if verdict == "block":
            return "blocked"
        stripe.Refund.create(charge=ticket.charge_id, amount=amount)
        client.remember(session_id=f"support:{ticket.customer}",
                        content=f"refund issued for {ticket.id}", intent="trace")
        client.record_outcome(session_id=RUN, reference_id=ticket.id, outcome="success", signal=1.0,
                              verified_in_production=True)


def rex_loop():
    for event in client.advanced.subscribe({"run_id": RUN, "event_types": ["context.handoff_created"]}):
        review = claude.messages.create(model="claude-haiku-4-5", max_tokens=5,
                                        messages=[{"role": "user", "content": f"approve or block? {event}"}])
        client.feedback(session_id=RUN, handoff_id=event["payload"]["handoff_id"], from_agent_id="rex",
                        verdict=review.content[0].text)
