import os

import stripe
from mubit import Client

RUN = "nimbus:ticket-1090"
client = Client(api_key=os.environ["MUBIT_API_KEY"], run_id=RUN, transport="http")


def process_refund(ticket, amount: int):
    key = f"refund-issued:{ticket.id}"
    prior = client.dereference(session_id=RUN, reference_id=key)
    if not prior.get("found"):
        verdict = client.handoff(session_id=RUN, task_id=f"{ticket.id}-refund",
                                 from_agent_id="ari", to_agent_id="human-billing-lead",
                                 requested_action="approve", content=f"Refund ${amount}",
                                 await_verdict=True)
        if verdict != "approve":
            return "held"
        refund = stripe.Refund.create(charge=ticket.charge_id, amount=amount, idempotency_key=key)
        client.remember(session_id=RUN, content=f"refund issued for {ticket.id}", intent="trace",
                        upsert_key=key)
        client.record_outcome(session_id=RUN, reference_id=ticket.id,
                              outcome="success" if refund.status == "succeeded" else "failure",
                              idempotency_key=key)


def console_decision(operator, handoff_id: str, decision: str):
    # The billing lead's authenticated console answers the handoff.
    client.feedback(session_id=RUN, handoff_id=handoff_id, from_agent_id="human-billing-lead",
                    verdict=decision, comments=f"decided by {operator.email}")
