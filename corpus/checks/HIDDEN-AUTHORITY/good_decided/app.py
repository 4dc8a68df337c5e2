import json

import stripe
from memrail import AMIClient
from memrail.atoms import state, tag
from openai import OpenAI

client = OpenAI()
ami = AMIClient()
ALLOWED = ("refund_request", "other")


def maybe_refund(ticket) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": ticket.text}])
    verdict = json.loads(reply.choices[0].message.content)
    intent = verdict["intent"] if verdict["intent"] in ALLOWED else "other"
    decision = ami.decide(decision_point="support.refund",
                          context=[state("ticket.id", ticket.id), tag("intent", intent, source="ml")])
    for item in decision.selected:
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH  # EXPECT: RECORDING-GAP (no outcome event)
