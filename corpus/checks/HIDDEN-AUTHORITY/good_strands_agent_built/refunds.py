"""Building agents (a class called through an alias) asks no model: a test on what was built
is no model's decision."""

import stripe
from strands import Agent

Reviewer = Agent


def review(ticket) -> None:
    reviewer = Reviewer(name="billing", system_prompt="Answer APPROVE or DENY.")
    if reviewer.name == "billing" and ticket.amount_cents < 5_000:  # EXPECT-NOT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: UNGOVERNED-PATH
