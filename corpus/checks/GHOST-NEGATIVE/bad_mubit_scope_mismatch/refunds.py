import os

import stripe
from mubit import Client

RUN = "nimbus:ticket-1088"
client = Client(api_key=os.environ["MUBIT_API_KEY"], run_id=RUN, transport="http")


def process_refund(ticket, amount: int):
    prior = client.recall(session_id=RUN, query=f"refund already issued for {ticket.id}",
                          entry_types=["trace"], evidence_only=True)
    if not prior.get("evidence"):  # EXPECT: GHOST-NEGATIVE
        stripe.Refund.create(charge=ticket.charge_id, amount=amount)
        client.remember(session_id=f"support:{ticket.customer}",
                        content=f"refund issued for {ticket.id}", intent="trace")
