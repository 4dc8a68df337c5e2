"""Refund requests. The Memrail gate decides most of them; two paths go around it."""

import stripe
from memrail import AsyncAMIClient
from memrail.atoms import state, tag

from support_agent.triage import assess

ami = AsyncAMIClient(workspace="production", project="support")


async def handle_refund(ticket, customer) -> dict:
    assessment = assess(ticket.body)
    # Hidden authority: a model confidence above 0.9 issues the refund with no decision point.
    if assessment["confidence"] > 0.9:
        stripe.Refund.create(charge=ticket.charge_id, amount=assessment["amount_cents"])
        return {"status": "refunded (confident)"}
    try:
        decision = await ami.decide(
            decision_point="support.refund",
            context=[
                state("refund.request_id", ticket.id),
                state("refund.amount_cents", ticket.amount_cents),
                state("customer.id", customer.id),
                tag("refund_intent", assessment["intent"], source="ml"),
            ],
        )
    except Exception:
        # Unsafe fallback: Memrail is down, so the model's proposal runs anyway.
        stripe.Refund.create(charge=ticket.charge_id, amount=assessment["amount_cents"])
        return {"status": "refunded (fallback)"}
    return {"status": "decided", "selected": bool(decision.selected)}


async def after_resolution(ticket, customer):
    return await ami.decide_and_execute(
        decision_point="support.after_resolution",
        context=[
            state("customer.id", customer.id),
            state("ticket.status", ticket.status),
        ],
    )
