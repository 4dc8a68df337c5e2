"""Which EMU a decision point would select for a context, and which matching EMUs lose.

The rules (seed 000, "Policy and arbitration", "Configure policy", "Lifecycle states"):

- **Lifecycle**: `active` and `canary` EMUs are selectable (the *live* lane). `shadow` EMUs are
  evaluated in their own diagnostic lane, ranked there, and never selected: "shadow candidates
  cannot displace active policy". `draft`, `inactive` and `archived` are not evaluated.
  *Decision*: an EMU without `state` is taken as live, because omission preserves whatever
  lifecycle is deployed, which may be active; any other value (`ACTIVE`, which registration
  rejects) is not evaluated.
- **Ranking**: score `0.7 × expected_utility + 0.3 × confidence` (exact decimals), ties broken
  by priority, then utility, then confidence, then creation time, all higher first. topo cannot
  see creation time; *decision*: file order stands in for it. Missing values take the SDK sync
  defaults (utility 0.8, confidence 0.9, priority 5).
- **Exclusion groups**: walking down the ranking, an EMU that shares a group with an already
  selected one is dropped ("arbitration chooses its highest-ranked member").
- **top_k**: at most `top_k` selections (None: no limit, the API default).
- **Suppression before ranking**: `mode: require_human` without `options.human_consent` (the
  simulation never has consent), and an enabled idempotency scope whose state key is missing or
  null ("missing or null required scope inputs suppress selection"). *Decision*: a suppressed
  EMU does not occupy its exclusion group.
- Not simulated: cooldowns (they depend on earlier activations) and canary cohorts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from topo.audit.dsl import EvalContext
from topo.audit.triggers.evaluation import TriggerUnderTest

__all__ = ["Contender", "Selection", "contender", "select", "lane_of", "LIVE_STATES",
           "EVALUATED_STATES"]

LIVE_STATES = frozenset({"active", "canary", None})
EVALUATED_STATES = LIVE_STATES | {"shadow"}
_UTILITY_WEIGHT, _CONFIDENCE_WEIGHT = Decimal("0.7"), Decimal("0.3")
_DEFAULT_UTILITY, _DEFAULT_CONFIDENCE, _DEFAULT_PRIORITY = Decimal("0.8"), Decimal("0.9"), 5

Lane = Literal["live", "shadow", "off"]


@dataclass(frozen=True, slots=True)
class Contender:
    """One EMU as arbitration sees it."""

    emu_key: str
    decision_point: str | None
    lane: Lane
    utility: Decimal
    confidence: Decimal
    priority: int
    groups: tuple[str, ...]
    needs_consent: bool
    idempotency_scope: tuple[str, ...]
    order: int
    trigger: TriggerUnderTest

    @property
    def score(self) -> Decimal:
        return _UTILITY_WEIGHT * self.utility + _CONFIDENCE_WEIGHT * self.confidence

    def rank_key(self) -> tuple:
        return (-self.score, -self.priority, -self.utility, -self.confidence, self.order)


@dataclass(frozen=True, slots=True)
class Selection:
    """One context at one decision point. `matching`: EMUs whose trigger matched, live lane
    first, each lane in rank order; `selected`: the live selection; `reasons`: why each
    matching EMU that was not selected lost."""

    decision_point: str | None
    context: EvalContext
    matching: tuple[str, ...]
    selected: tuple[str, ...]
    reasons: tuple[tuple[str, str], ...]


def lane_of(state: str | None) -> Lane:
    if state in LIVE_STATES:
        return "live"
    return "shadow" if state == "shadow" else "off"


def contender(emu_key: str, decision_point: str | None, state: str | None, raw: dict[str, Any],
              trigger: TriggerUnderTest, order: int) -> Contender:
    """Read the ranking inputs of an EMU object (`raw`), tolerating wrong types (the schema
    reports them) by falling back to the defaults."""
    policy = raw.get("policy") if isinstance(raw.get("policy"), dict) else {}
    idempotency = policy.get("idempotency") if isinstance(policy.get("idempotency"), dict) else {}
    scope = idempotency.get("scope") if idempotency.get("enabled") is True else ()
    groups = policy.get("exclusion_groups")
    priority = policy.get("priority")
    return Contender(
        emu_key=emu_key, decision_point=decision_point, lane=lane_of(state),
        utility=_decimal(raw.get("expected_utility"), _DEFAULT_UTILITY),
        confidence=_decimal(raw.get("confidence"), _DEFAULT_CONFIDENCE),
        priority=priority if type(priority) is int else _DEFAULT_PRIORITY,
        groups=tuple(g for g in groups if isinstance(g, str)) if isinstance(groups, list) else (),
        needs_consent=policy.get("mode") == "require_human",
        idempotency_scope=tuple(k for k in scope if isinstance(k, str))
        if isinstance(scope, list) else (),
        order=order, trigger=trigger)


def select(contenders: Sequence[Contender], ctx: EvalContext, *,
           top_k: int | None = None) -> Selection:
    """Arbitrate among `contenders` (one decision point) for `ctx`."""
    matched = sorted((c for c in contenders if c.lane != "off" and c.trigger.matches(ctx)),
                     key=Contender.rank_key)
    live = [c for c in matched if c.lane == "live"]
    shadow = [c for c in matched if c.lane == "shadow"]
    reasons = [(c.emu_key, "shadow: evaluated in its own lane, never selected") for c in shadow]
    selected: list[Contender] = []
    for candidate in live:
        reason = _suppression(candidate, ctx) or _displacement(candidate, selected, top_k)
        if reason is None:
            selected.append(candidate)
        else:
            reasons.append((candidate.emu_key, reason))
    point = contenders[0].decision_point if contenders else None
    return Selection(point, ctx, tuple(c.emu_key for c in live + shadow),
                     tuple(c.emu_key for c in selected), tuple(sorted(reasons)))


def _suppression(candidate: Contender, ctx: EvalContext) -> str | None:
    if candidate.needs_consent:
        return "require_human: not selected without options.human_consent"
    missing = [key for key in candidate.idempotency_scope if ctx.state.get(key) is None]
    if missing:
        return f"idempotency scope {missing[0]!r} is missing"
    return None


def _displacement(candidate: Contender, selected: list[Contender],
                  top_k: int | None) -> str | None:
    for winner in selected:
        shared = next(iter(_shared_groups(candidate, winner)), None)
        if shared is not None:
            return (f"outranked by {winner.emu_key} in exclusion group {shared!r} "
                    f"(score {_score_text(winner)} vs {_score_text(candidate)})")
    if top_k is not None and len(selected) >= top_k:
        return f"beyond top_k {top_k}"
    return None


def _shared_groups(a: Contender, b: Contender) -> Iterator[str]:
    return (group for group in a.groups if group in b.groups)


def _score_text(c: Contender) -> str:
    text = format(c.score.normalize(), "f")
    return f"{text}, priority {c.priority}"


def _decimal(value: Any, default: Decimal) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    try:
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except (InvalidOperation, ValueError):
        return default
