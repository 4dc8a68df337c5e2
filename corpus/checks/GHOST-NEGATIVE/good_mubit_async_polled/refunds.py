import os

import stripe
from mubit import Client

RUN = "nimbus:ticket-1088"
client = Client(api_key=os.environ["MUBIT_API_KEY"], run_id=RUN, transport="http")


def process_refund(ticket, amount: int):
    key = f"refund-issued:{ticket.id}"
    job = client.remember(session_id=RUN, content=f"refund started for {ticket.id}",
                          intent="trace", upsert_key=key)
    client.get_ingest_job(job)
    prior = client.dereference(session_id=RUN, reference_id=key)
    if not prior.get("found"):  # EXPECT-NOT: GHOST-NEGATIVE
        stripe.Refund.create(charge=ticket.charge_id, amount=amount, idempotency_key=key)
        client.remember(session_id=RUN, content=f"refund issued for {ticket.id}",
                        intent="trace", upsert_key=key)
