"""Shadow-testing an escalation policy: the SDK helper evaluates it and skips the handlers."""

from memrail import AsyncAMIClient
from memrail.atoms import state
from memrail.models import InvokeOptions
from memrail.tools import ToolRegistry
from slack_sdk import WebClient

ami = AsyncAMIClient(workspace="production", project="support")
registry = ToolRegistry()
slack = WebClient(token="xoxb-test")


@registry.tool(name="post_escalation", description="Post to #escalations", projects=["support"])
async def post_escalation(args: dict) -> dict:
    slack.chat_postMessage(channel="#escalations", text=args["message"])  # EXPECT-NOT: EVAL-LEAK
    return {"posted": True}


async def maybe_escalate(ticket) -> None:
    await ami.decide_and_execute(
        decision_point="support.escalation",
        context=[state("ticket.id", ticket.id), state("ticket.age_hours", ticket.age_hours)],
        options=InvokeOptions(dry_run=True),
        auto_ack=True,
    )
