"""RETENTION-WINDOW: an event window longer than the organisation's event retention.

Seed 000 ("Events and traces", "Event retention"): events are kept 90 days by default; "a longer
query window can still match recent retained events, but cannot recover expired history", and
the validator reports `WARN-WINDOW-OUT-OF-RETENTION`. Low severity: the trigger is valid and
often harmless, but a negated clause over that window reads expired history as "never
happened". Durations count a month as 30 days and a year as 365 days, as the DSL does.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from topo.audit import codes
from topo.audit.policy.lints._lint import Issue, Lint, LintContext

__all__ = ["LINTS"]

_DAY = Decimal(86400)


def long_windows(context: LintContext) -> Iterator[Issue]:
    facts = context.trigger
    if facts is None or facts.ast is None:
        return
    limit = context.config.retention_days * _DAY
    seen: set[tuple[str, str]] = set()
    for window in facts.windows:
        if window.seconds <= limit or (window.event, window.raw) in seen:
            continue
        seen.add((window.event, window.raw))
        days = (window.seconds / _DAY).normalize()
        yield Issue(f"`{window.event}` looks back '{window.raw}' ({days:f} days), longer "
                    f"than the {context.config.retention_days}-day event retention",
                    ("trigger",))


LINTS: tuple[Lint, ...] = (
    Lint("long_windows", codes.RETENTION_WINDOW, ("trigger",), long_windows),
)
