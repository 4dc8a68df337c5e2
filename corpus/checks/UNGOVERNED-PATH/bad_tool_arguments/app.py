import json

import stripe
from openai import OpenAI

client = OpenAI()


def refund_from_chat(message: str) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
    plan = json.loads(reply.choices[0].message.content)
    stripe.Refund.create(charge=plan["charge_id"], amount=plan["amount_cents"])  # EXPECT: UNGOVERNED-PATH
