import json

import stripe
from openai import OpenAI

client = OpenAI()


def maybe_refund(ticket) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": ticket.text}])
    verdict = json.loads(reply.choices[0].message.content)
    if verdict["confidence"] > 0.8:  # EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH
