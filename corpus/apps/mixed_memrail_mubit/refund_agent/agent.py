"""Mubit supplies lessons to the model; Memrail decides whether a refund happens."""

import os
from datetime import datetime, timezone
from typing import Literal

from anthropic import Anthropic
from memrail import AsyncAMIClient
from memrail.atoms import event, state, tag
from mubit import Client
from pydantic import TypeAdapter

Intent = Literal["refund_request", "billing", "other", "unknown"]
llm = Anthropic()
memory = Client(api_key=os.environ["MUBIT_API_KEY"], transport="http")


def classify_intent(ticket) -> str:
    lessons = memory.get_context(session_id=f"support:{ticket.customer_id}",
                                 query="how to classify refund requests", max_token_budget=800)
    reply = llm.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=20,
        system=lessons["context_block"],
        messages=[{"role": "user", "content": ticket.body}],
    )
    return TypeAdapter(Intent).validate_python(reply.content[0].text.strip())


async def handle_refund(ticket, customer):
    intent = classify_intent(ticket)
    async with AsyncAMIClient(workspace="production", project="support") as client:
        result = await client.decide_and_execute(
            decision_point="support.refund",
            context=[
                state("refund.request_id", ticket.id),
                state("refund.amount_cents", ticket.amount_cents),
                state("customer.id", customer.id),
                tag("intent", intent, source="ml"),
            ],
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
                memory.remember(session_id=f"support:{ticket.customer_id}", intent="trace",
                                content=f"refund issued for {ticket.id}", upsert_key=ticket.id)
        return result
