"""Large refunds need a human (an EMU in require_human mode)."""

import json
from datetime import datetime, timezone

import stripe
from memrail import AMIClient
from memrail.atoms import event, state
from memrail.models import InvokeOptions
from openai import OpenAI

from refunds.approvals import approved_by_reviewer

llm = OpenAI()
ami = AMIClient(workspace="production", project="support")


def refund_large(ticket) -> None:
    reply = llm.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "user", "content": f"Should we approve this refund? {ticket.body}"}],
        response_format={"type": "json_object"},
    )
    review = json.loads(reply.choices[0].message.content)
    consent = approved_by_reviewer(ticket.id)
    decision = ami.decide(  # EXPECT-NOT: MODEL-CONSENT
        decision_point="support.large_refund",
        context=[state("refund.request_id", ticket.id),
                 state("refund.amount_cents", ticket.amount_cents)],
        options=InvokeOptions(human_consent=consent),
    )
    for item in decision.selected:
        stripe.Refund.create(charge=ticket.charge_id, amount=ticket.amount_cents)
        ami.emit_event(event("agent.issued.refund", ts=datetime.now(timezone.utc),
                             attributes={"request_id": ticket.id}))
        ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
