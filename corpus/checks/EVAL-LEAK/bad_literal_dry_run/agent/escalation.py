"""Shadow-testing an escalation policy: evaluated as a dry run, yet its selections are posted."""

from memrail import AMIClient
from memrail.atoms import state
from memrail.models import InvokeOptions
from slack_sdk import WebClient

ami = AMIClient(workspace="production", project="support")
slack = WebClient(token="xoxb-test")


def maybe_escalate(ticket) -> None:
    decision = ami.decide(
        decision_point="support.escalation",
        context=[state("ticket.id", ticket.id), state("ticket.age_hours", ticket.age_hours)],
        options=InvokeOptions(dry_run=True),
    )
    for item in decision.selected:
        slack.chat_postMessage(channel="#escalations", text=item.action["message"])  # EXPECT: EVAL-LEAK
        ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
