"""Account lockout review: count failed logins per user, route to security review."""

from datetime import datetime, timezone

from memrail import AsyncAMIClient
from memrail.atoms import event, state
from memrail.tools import ToolRegistry

client = AsyncAMIClient(workspace="production", project="identity")
registry = ToolRegistry()


async def record_failed_login(user_id: str) -> None:
    await client.emit_event(
        event("user.failed.logins", ts=datetime.now(timezone.utc), attributes={"user_id": user_id})
    )


@registry.on_route
async def open_security_review(destination, metadata):
    return {"queue": destination}


async def on_login_attempt(user, succeeded: bool):
    if not succeeded:
        await record_failed_login(user.id)
    return await client.decide_and_execute(
        decision_point="security.account_access",
        context=[state("user.id", user.id)],
    )
