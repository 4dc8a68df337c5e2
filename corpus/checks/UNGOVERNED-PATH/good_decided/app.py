import json

import stripe
from memrail import AMIClient
from memrail.atoms import state
from openai import OpenAI

client = OpenAI()
ami = AMIClient()


def refund_from_chat(message: str) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
    plan = json.loads(reply.choices[0].message.content)
    decision = ami.decide(decision_point="support.refund",
                          context=[state("refund.amount_cents", plan["amount_cents"])])
    if not decision.selected:
        return
    stripe.Refund.create(charge=plan["charge_id"], amount=plan["amount_cents"])  # EXPECT-NOT: UNGOVERNED-PATH  # EXPECT: RECORDING-GAP (no outcome event)
