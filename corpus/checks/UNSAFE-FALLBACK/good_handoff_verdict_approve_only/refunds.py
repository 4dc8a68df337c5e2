import os

import stripe
from mubit import Client

RUN = "nimbus:ticket-1090"
client = Client(api_key=os.environ["MUBIT_API_KEY"], run_id=RUN)


def process_refund(ticket, amount: int):
    verdict = client.handoff(session_id=RUN, task_id=f"{ticket.id}-refund",
                             from_agent_id="ari", to_agent_id="human-billing-lead",
                             requested_action="approve", content=f"Refund ${amount}",
                             await_verdict=True, timeout_seconds=300)
    if verdict != "approve":  # EXPECT-NOT: UNSAFE-FALLBACK
        return "held"
    stripe.Refund.create(charge=ticket.charge_id, amount=amount)


def console_decision(operator, handoff_id: str, decision: str):
    # Called from the billing lead's authenticated console form.
    client.feedback(session_id=RUN, handoff_id=handoff_id, from_agent_id="human-billing-lead",
                    verdict=decision, comments=f"decided by {operator.email}")
