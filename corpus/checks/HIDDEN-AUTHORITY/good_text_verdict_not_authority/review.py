"""Text tests that do not hand a model the decision: the same regular expression over the
customer's own request or over configuration, and a model verdict that only informs the
human who approves."""

import os
import re

import stripe
from langgraph.types import interrupt
from openai import OpenAI

client = OpenAI()
CHARGEBACK = re.compile(r"\bchargeback\b", re.IGNORECASE)
MODE = os.environ.get("REFUND_MODE", "manual")


def refund_on_request(ticket):
    # The customer's own words, not a model's: a rule over the request decides.
    asked = bool(re.search(r"\brefund\b", ticket.text))
    disputed = any(word in ticket.text.lower() for word in ("chargeback", "fraud"))
    if asked and not disputed:
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: HIDDEN-AUTHORITY


def refund_by_mode(ticket):
    automatic = MODE.startswith("auto")
    if automatic:
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: HIDDEN-AUTHORITY


def refund_after_review(ticket):
    reply = client.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "user", "content": f"Reply APPROVE or DENY: {ticket.text}"}],
    )
    suggested = bool(re.search(r"\bAPPROVE\b", reply.choices[0].message.content))
    # The model may only hold a refund back: a person approves every one that is made.
    answer = interrupt({"ticket": ticket.id, "model_suggests": suggested})
    if suggested and answer == "approve":
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: HIDDEN-AUTHORITY
