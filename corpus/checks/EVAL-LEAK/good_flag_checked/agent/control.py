"""Control before a tool call (seed 000, pattern 2), rolled out in evaluation-only mode."""

from memrail import AMIClient
from memrail.atoms import state
from memrail.models import InvokeOptions

from agent.tools import execute_authorized_tool

ami = AMIClient(workspace="production", project="support")


def before_tool_call(tool_name: str, customer, request_id: str, *,
                     evaluation_only: bool = True) -> None:
    decision = ami.decide(
        decision_point="agent.before_tool_call",
        context=[
            state("agent.tool_name", tool_name),
            state("customer.tier", customer.tier),
            state("refund.request_id", request_id),
        ],
        options=InvokeOptions(dry_run=evaluation_only),
    )
    for item in decision.selected:
        if evaluation_only:
            continue  # a dry run may hold ordinary actionable selections
        if item.action and item.action.get("type") == "tool_call":
            execute_authorized_tool(item.action["tool"])  # EXPECT-NOT: EVAL-LEAK
            ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
