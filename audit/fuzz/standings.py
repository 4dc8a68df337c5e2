"""Competing policies at each decision point: the selections at each EMU's witness, and for
every live EMU a context where it matches but loses and one where it wins, if any exist.

Seed 000: "A matching condition can also lose selection; test competing policies." A live EMU
that is reachable but never wins within the search budget is probably always outscored (for
example by a higher-scored member of its exclusion group whose trigger it implies); its loss
context is the evidence. The searches draw from the EMU's own branch plans over the probes of
every EMU at the decision point, so competitors' inputs vary too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from hypothesis.strategies import SearchStrategy

from topo.audit.dsl import EvalContext, context_to_json
from topo.audit.fuzz.arbitration import Contender, Selection, select
from topo.audit.triggers.boundaries import Probes, merge_probes
from topo.audit.triggers.plans import branch_plans, free_plan
from topo.audit.triggers.search import Budget, find_minimal
from topo.audit.triggers.strategies import planned_contexts

__all__ = ["Standing", "DecisionPointReport", "decision_point_reports"]


@dataclass(frozen=True, slots=True)
class Standing:
    """How one evaluated EMU fares. `loss`: a selection where it matches but is not selected;
    `win`: one where it is selected. `searched`: both were looked for (a reachable live EMU
    with competitors), so a missing `win` means "never won among `tried` contexts"."""

    emu_key: str
    lane: str
    loss: Selection | None
    win: Selection | None
    searched: bool
    tried: int = 0


@dataclass(frozen=True, slots=True)
class DecisionPointReport:
    decision_point: str | None
    contenders: tuple[str, ...]
    selections: tuple[Selection, ...]
    standings: tuple[Standing, ...]


def decision_point_reports(contenders: Sequence[Contender],
                           witnesses: Mapping[str, EvalContext | None],
                           probes: Mapping[str, Probes], budget: Budget, *, now: datetime,
                           top_k: int | None,
                           expired: Callable[[], bool] = lambda: False
                           ) -> tuple[DecisionPointReport, ...]:
    """One report per decision point that has evaluated EMUs (unbound EMUs form the `None`
    point), in name order with `None` last. Once `expired()` (the run's time budget), no
    further win/lose search starts: those standings say `searched=False`."""
    points: dict[str | None, list[Contender]] = {}
    for candidate in contenders:
        if candidate.lane != "off":
            points.setdefault(candidate.decision_point, []).append(candidate)
    reports = []
    for point in sorted(points, key=lambda p: (p is None, p or "")):
        reports.append(_report(point, points[point], witnesses, probes, budget, now, top_k,
                               expired))
    return tuple(reports)


def _report(point: str | None, group: list[Contender],
            witnesses: Mapping[str, EvalContext | None], probes: Mapping[str, Probes],
            budget: Budget, now: datetime, top_k: int | None,
            expired: Callable[[], bool]) -> DecisionPointReport:
    merged = merge_probes(*(probes[c.emu_key] for c in group))

    def arbitrate(ctx: EvalContext) -> Selection:
        return select(group, ctx, top_k=top_k)

    standings = []
    for candidate in group:
        witness = witnesses.get(candidate.emu_key)
        at_witness = arbitrate(witness) if witness is not None else None
        standings.append(_standing(candidate, at_witness, len(group), merged, arbitrate,
                                   budget, now, expired))
    shown: dict[str, Selection] = {}
    for standing in standings:
        for selection in (standing.loss, standing.win):
            if selection is not None:
                shown.setdefault(_canonical(selection.context), selection)
    return DecisionPointReport(point, tuple(c.emu_key for c in group), tuple(shown.values()),
                               tuple(standings))


def _standing(candidate: Contender, at_witness: Selection | None, competitors: int,
              merged: Probes, arbitrate: Callable[[EvalContext], Selection], budget: Budget,
              now: datetime, expired: Callable[[], bool]) -> Standing:
    key = candidate.emu_key
    if at_witness is None:
        return Standing(key, candidate.lane, None, None, False)
    won = key in at_witness.selected
    win, loss = (at_witness, None) if won else (None, at_witness)
    if candidate.lane != "live" or competitors == 1 or expired():
        return Standing(key, candidate.lane, loss, win, False)
    plans = (*branch_plans(candidate.trigger.ast, merged), free_plan(merged))
    strategy = planned_contexts(plans, now=now)
    tried = 0
    if loss is None:
        loss, tried = _search(strategy, lambda s: key in s.matching and key not in s.selected,
                              arbitrate, budget, f"loses:{key}")
    if win is None:
        win, tried = _search(strategy, lambda s: key in s.selected, arbitrate, budget,
                             f"wins:{key}")
    return Standing(key, candidate.lane, loss, win, True, tried)


def _search(strategy: SearchStrategy[EvalContext], wanted: Callable[[Selection], bool],
            arbitrate: Callable[[EvalContext], Selection], budget: Budget,
            purpose: str) -> tuple[Selection | None, int]:
    """The selection at the minimal context where `wanted` holds, and the contexts tried."""
    found = find_minimal(strategy, lambda ctx: wanted(arbitrate(ctx)), budget, purpose)
    if isinstance(found.value, EvalContext):
        return arbitrate(found.value), found.tried
    return None, found.tried


def _canonical(ctx: EvalContext) -> str:
    return json.dumps(context_to_json(ctx), sort_keys=True)
