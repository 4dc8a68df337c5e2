"""Refunds pass a decision point a person must consent to; replies go out unreviewed."""

import smtplib

from anthropic import Anthropic
from memrail import AsyncAMIClient
from memrail.atoms import state
from memrail.models import InvokeOptions

llm = Anthropic()
SENDER = "billing@example.com"


async def refund(request, reviewer) -> dict:
    if reviewer is None or not reviewer.authenticated:
        return {"status": "needs a reviewer"}
    async with AsyncAMIClient(workspace="production", project="billing") as client:
        result = await client.decide_and_execute(
            decision_point="billing.refund",
            context=[
                state("refund.request_id", request.id),
                state("refund.amount_cents", request.amount_cents),
            ],
            options=InvokeOptions(human_consent=True),
        )
    return {"status": "decided", "results": len(result.execution_results)}


def reply(ticket) -> str:
    draft = llm.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=800,
        messages=[{"role": "user", "content": f"Reply to: {ticket.body}"}],
    )
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail(SENDER, [ticket.customer_email], draft.content[0].text)
    return "sent"
