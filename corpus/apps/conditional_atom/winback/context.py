"""Build the decision context for the win-back decision point."""

from datetime import datetime, timezone

from memrail import AMIClient
from memrail.atoms import state


def build_context(user):
    context = [state("user.id", user.id), state("user.plan", user.plan)]
    if user.last_login_at is not None:
        days = (datetime.now(timezone.utc) - user.last_login_at).days
        context.append(state("user.days_since_last_login", days))
    return context


def maybe_win_back(user):
    with AMIClient() as client:
        return client.decide(decision_point="growth.winback", context=build_context(user))


def winback_instructions(user):
    """The directives of the selected EMUs, for the support agent's next prompt."""
    decision = maybe_win_back(user)
    return [item.action["directive"] for item in decision.selected]
