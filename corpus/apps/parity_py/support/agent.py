"""Refund agent: the model scores the ticket, Memrail decides, Stripe refunds, an event records it."""

import json

import stripe
from memrail import AMIClient
from memrail.atoms import event, state, tag
from openai import OpenAI

client = OpenAI()
ami = AMIClient()


def assess(text):
    resp = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": text}],
    )
    return json.loads(resp.choices[0].message.content)


def handle(ticket):
    verdict = assess(ticket["text"])
    if verdict["confidence"] < 0.6:
        return "escalated"
    decision = ami.decide(
        decision_point="support.refund",
        context=[
            state("refund.amount_cents", ticket["amount"]),
            tag("intent", verdict["intent"], source="ml"),
        ],
    )
    if not decision.selected:
        return "denied"
    refund(ticket)
    return "refunded"


def refund(ticket):
    stripe.Refund.create(charge=ticket["charge"], amount=ticket["amount"])
    ami.emit_event(event("agent.issued.refund", ts="now", attributes={"charge": ticket["charge"]}))
