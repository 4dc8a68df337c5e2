"""Follow-up emails after a ticket is resolved: decide, send, record the send."""

from datetime import datetime, timezone

from memrail import AsyncAMIClient
from memrail.atoms import event, state
from memrail.tools import ToolRegistry

client = AsyncAMIClient(workspace="production", project="support")
registry = ToolRegistry()


@registry.tool(name="send_follow_up_email", description="Send the resolution follow-up email",
               projects=["support"])
async def send_follow_up_email(args: dict) -> dict:
    message_id = f"follow-up-{args['customer_id']}"
    await client.emit_event(
        event(
            "agent.email.sent",
            ts=datetime.now(timezone.utc),
            attributes={"customer_id": args["customer_id"], "message_id": message_id},
        )
    )
    return {"message_id": message_id}


async def after_resolution(ticket, customer):
    return await client.decide_and_execute(
        decision_point="support.after_resolution",
        context=[
            state("customer.id", customer.id),
            state("ticket.status", ticket.status),
        ],
    )
