import stripe
from openai import OpenAI

client = OpenAI()
AUTO_REFUND_CENTS = 5_000


def triage(ticket, order) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": ticket.text}])
    note = reply.choices[0].message.content
    # Business rules on the order record decide; the model only writes the note.
    if ticket.kind == "refund":  # EXPECT-NOT: HIDDEN-AUTHORITY
        if order.amount_cents <= AUTO_REFUND_CENTS:  # EXPECT-NOT: HIDDEN-AUTHORITY
            stripe.Refund.create(charge=ticket.charge_id, metadata={"note": note})  # EXPECT: UNGOVERNED-PATH
