"""Build the decision context for the win-back decision point."""

from datetime import datetime, timezone

from memrail import AMIClient
from memrail.atoms import state


def build_context(user):
    context = [state("user.id", user.id)]
    # Broken for users who never logged in.
    if user.last_login_at is not None:
        days = (datetime.now(timezone.utc) - user.last_login_at).days
        context.append(state("user.days_since_last_login", days))
    return context


def winback_instructions(user):
    with AMIClient(project="growth") as client:
        decision = client.decide(decision_point="growth.winback", context=build_context(user))  # EXPECT: ATOM-GAP
    return [item.action["directive"] for item in decision.selected]
