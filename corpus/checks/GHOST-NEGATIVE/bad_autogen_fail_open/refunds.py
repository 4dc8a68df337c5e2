"""An AutoGen agent records refunds through MubitMemory, whose writes fail open (seed 004,
AutoGen gotchas): a skipped write later reads as "no refund was issued"."""

import stripe
from mubit import Client
from mubit_autogen import MubitMemory

RUN = "nimbus:ticket-1088"
client = Client(run_id=RUN, transport="http")
memory = MubitMemory(client=client, session_id=RUN)


async def process_refund(ticket, amount: int):
    key = f"refund-issued:{ticket.id}"
    prior = client.dereference(session_id=RUN, reference_id=key)
    if not prior.get("found"):  # EXPECT: GHOST-NEGATIVE
        stripe.Refund.create(charge=ticket.charge_id, amount=amount, idempotency_key=key)
        await memory.add(f"refund issued for {ticket.id}", upsert_key=key)
