"""The refund flow: classify, build atoms, decide, execute the selection, record the outcome."""

from datetime import datetime, timezone
from typing import Literal

from anthropic import Anthropic
from memrail import AsyncAMIClient
from memrail.atoms import event, state, tag
from memrail.models import InvokeOptions
from pydantic import TypeAdapter

Intent = Literal["refund_request", "billing", "other", "unknown"]
llm = Anthropic()


def classify_intent(message: str) -> str:
    reply = llm.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=20,
        messages=[{"role": "user", "content": message}],
    )
    return TypeAdapter(Intent).validate_python(reply.content[0].text.strip())


async def handle_refund(ticket, customer, *, execute: bool = False):
    intent = classify_intent(ticket.body)
    async with AsyncAMIClient(workspace="production", project="support") as client:
        result = await client.decide_and_execute(
            decision_point="support.refund",
            context=[
                state("refund.request_id", ticket.id),
                state("refund.amount_cents", ticket.amount_cents),
                state("customer.id", customer.id),
                tag("intent", intent, source="ml"),
            ],
            options=InvokeOptions(dry_run=not execute),
            auto_ack=True,
        )
        for execution in result.execution_results:
            if execution.success:
                await client.emit_event(
                    event(
                        "agent.issued.refund",
                        ts=datetime.now(timezone.utc),
                        attributes={"customer_id": customer.id, "request_id": ticket.id},
                    ),
                )
        return result
