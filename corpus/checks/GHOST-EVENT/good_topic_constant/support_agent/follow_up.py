"""Follow-up emails after a ticket is resolved: decide, send, record the send under a topic
held in a module constant (imported), as apps that name their topics once write it."""

from datetime import datetime, timezone

from memrail import AsyncAMIClient
from memrail.atoms import event, state
from memrail.tools import ToolRegistry

from support_agent import topics
from support_agent.topics import Topic

client = AsyncAMIClient(workspace="production", project="support")
registry = ToolRegistry()


@registry.tool(name="send_follow_up_email", description="Send the resolution follow-up email",
               projects=["support"])
async def send_follow_up_email(args: dict) -> dict:
    message_id = f"follow-up-{args['customer_id']}"
    await client.emit_event(
        event(
            topics.SENT_EMAIL,
            ts=datetime.now(timezone.utc),
            attributes={"customer_id": args["customer_id"], "message_id": message_id},
        )
    )
    return {"message_id": message_id}


async def close(ticket) -> None:
    await client.emit_event(event(Topic.CLOSED_TICKET, ts=datetime.now(timezone.utc),
                                  attributes={"ticket_id": ticket.id}))


async def after_resolution(ticket, customer):
    return await client.decide_and_execute(
        decision_point="support.after_resolution",
        context=[
            state("customer.id", customer.id),
            state("ticket.status", ticket.status),
        ],
    )
