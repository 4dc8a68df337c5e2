"""Verdicts parsed from a model's free-text answer decide money movements: the decision is
the statement that parses the verdict, the `if` below it only asks it."""

import re

import stripe
from openai import OpenAI

client = OpenAI()
APPROVE = re.compile(r"^\s*APPROVE\b", re.IGNORECASE)
REFUSALS = ("deny", "reject", "escalate")


def review_refund(ticket):
    reply = client.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "user", "content": f"Reply APPROVE or DENY: {ticket.text}"}],
    )
    answer = reply.choices[0].message.content
    approved = bool(re.search(r"\bAPPROVE\b", answer))  # EXPECT: HIDDEN-AUTHORITY
    if approved:  # EXPECT: MODEL-CONSENT
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH


def review_cancellation(order):
    reply = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": order.summary}])
    text = reply.choices[0].message.content
    refused = any(word in text.lower() for word in REFUSALS)  # EXPECT: HIDDEN-AUTHORITY
    if refused:
        return "kept"
    stripe.Subscription.delete(order.subscription_id)  # EXPECT: UNGOVERNED-PATH
    return "cancelled"


def review_payout(claim):
    reply = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": claim.summary}])
    ok = APPROVE.match(reply.choices[0].message.content) is not None  # EXPECT: HIDDEN-AUTHORITY
    if ok:
        stripe.Payout.create(amount=claim.amount, currency="usd")  # EXPECT: UNGOVERNED-PATH
