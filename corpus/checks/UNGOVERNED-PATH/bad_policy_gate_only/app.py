# The model proposes the refund; only configuration, a flag and the customer's tier stand
# before it. None of them decides on what the model proposed: the path is ungoverned.
import json
import os

import ldclient
import stripe
from django.conf import settings
from openai import OpenAI

client = OpenAI()


def refund_from_chat(message: str, customer, context) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
    plan = json.loads(reply.choices[0].message.content)
    if not settings.AUTO_REFUND or os.getenv("REFUNDS_PAUSED") == "1":
        return
    if customer.tier == "gold" and ldclient.get().variation("auto-refunds", context, False):
        stripe.Refund.create(charge=plan["charge_id"], amount=plan["amount_cents"])  # EXPECT: UNGOVERNED-PATH  # EXPECT-NOT: HIDDEN-AUTHORITY
