# The same configuration, flag and tier checks, and a decision on the model's proposal: the
# decision governs the path; the checks still select the effect.
import json
import os

import ldclient
import stripe
from django.conf import settings
from memrail import AMIClient
from memrail.atoms import state
from openai import OpenAI

client = OpenAI()
ami = AMIClient()


def refund_from_chat(message: str, customer, context) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
    plan = json.loads(reply.choices[0].message.content)
    if not settings.AUTO_REFUND or os.getenv("REFUNDS_PAUSED") == "1":
        return
    decision = ami.decide(decision_point="support.refund",
                          context=[state("refund.amount_cents", plan["amount_cents"])])
    if not decision.selected:
        return
    if customer.tier == "gold" and ldclient.get().variation("auto-refunds", context, False):
        stripe.Refund.create(charge=plan["charge_id"], amount=plan["amount_cents"])  # EXPECT-NOT: UNGOVERNED-PATH, HIDDEN-AUTHORITY  # EXPECT: RECORDING-GAP (no outcome event)
