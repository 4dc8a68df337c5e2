"""Seed 000, "The authority boundary": validate the model's label against a fixed set."""

import json

from memrail import AMIClient
from memrail.atoms import state, tag
from openai import OpenAI

REFUND_INTENTS = {"duplicate_charge", "service_failure", "fraud", "other", "unknown"}
client = OpenAI()
ami = AMIClient(workspace="production", project="support")


def refund_actions(ticket) -> list[dict]:
    reply = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Refund intent as JSON: {ticket.body}"}],
        response_format={"type": "json_object"},
    )
    classified_intent = json.loads(reply.choices[0].message.content)["intent"]
    # Validate actual runtime output; a type annotation alone does not do this.
    if classified_intent not in REFUND_INTENTS:
        raise ValueError("Invalid refund intent")
    context = [state("refund.request_id", ticket.id)]
    context.append(tag("refund_intent", classified_intent, source="ml"))  # EXPECT-NOT: UNVALIDATED-TAG
    decision = ami.decide(decision_point="support.refund", context=context)
    return [item.action for item in decision.selected]
