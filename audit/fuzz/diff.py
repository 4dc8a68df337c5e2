"""Before/after comparison of one EMU's trigger (`topo fuzz --before OLD`).

Both versions are judged on the same contexts: every probe row of the union of both versions'
probes (see `tables`), and a Hypothesis sample drawn from both versions' branch plans. The rows
vary one atom around a *base* on which both versions agree, preferably one that both match
("all other facts valid"); around a base where they already disagree, every row would differ
for the base's sake and be blamed on the varied atom. A row changed when one version matches at that value and the other does
not; the changed values of one atom are summarised as the runs of tested numbers that changed
the same way (`[5001, 7500]`: 5000 and 7501 were tested and did not change) and a set of the
other values (`{'USD', absent}`). Unchanged rows are kept too, as the confirmation a reviewer
asks for: "5,000 matches in both; wrong currency, any missing fact match in neither".
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from topo.audit.dsl import EvalContext, context_to_json
from topo.audit.triggers.atoms import Atom
from topo.audit.triggers.boundaries import Probes, same_value
from topo.audit.triggers.evaluation import TriggerUnderTest
from topo.audit.triggers.plans import branch_plans, free_plan
from topo.audit.triggers.search import Budget, draw_sample, find_minimal
from topo.audit.triggers.strategies import planned_contexts
from topo.audit.fuzz.tables import empty_context, probe_rows, value_sort_key
from topo.audit.fuzz.values import format_value, format_values, is_number

__all__ = ["SweepPoint", "DiffCase", "ChangedRegion", "UnchangedRegion", "EmuDiff",
           "diff_bases", "diff_triggers", "added_emu", "removed_emu", "MAX_SAMPLED_CASES"]

MAX_SAMPLED_CASES = 10
"""Changed contexts from the random sample kept per EMU (the probe rows are all kept)."""

_CHANGES = ((False, True), (True, False))


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """One atom at one value, judged by both versions. `context` is one where they differ, if
    any; else one where a version matches, else the base with the value set."""

    atom: Atom
    value: Any
    before: bool
    after: bool
    context: EvalContext


@dataclass(frozen=True, slots=True)
class DiffCase:
    """A context whose outcome changed (the `diff` entries of `topo-fuzz/1`)."""

    emu_key: str
    context: EvalContext
    before: bool
    after: bool


@dataclass(frozen=True, slots=True)
class ChangedRegion:
    """Where one atom's outcome changed (`diff_summary`); `atom` is None when the whole EMU was
    added (`changed == "added"`) or removed."""

    emu_key: str
    atom: Atom | None
    changed: str
    before: bool
    after: bool


@dataclass(frozen=True, slots=True)
class UnchangedRegion:
    """Values of one atom at which both versions agree, matching (`outcome`) or not."""

    emu_key: str
    atom: Atom
    values: tuple[Any, ...]
    outcome: bool


@dataclass(frozen=True, slots=True)
class EmuDiff:
    emu_key: str
    status: Literal["changed", "unchanged", "added", "removed"]
    points: tuple[SweepPoint, ...] = ()
    cases: tuple[DiffCase, ...] = ()
    regions: tuple[ChangedRegion, ...] = ()
    unchanged: tuple[UnchangedRegion, ...] = ()
    sampled: int = 0


def diff_bases(emu_key: str, before: TriggerUnderTest, after: TriggerUnderTest,
               probes: Probes, witnesses: Sequence[EvalContext], budget: Budget, *,
               now: datetime) -> list[EvalContext]:
    """The contexts to sweep around: the witnesses that both versions match, else a searched
    context that both match, else the witnesses on which they agree, else an empty context."""
    unique = list(dict.fromkeys(_canonical(w) for w in witnesses))
    distinct = [next(w for w in witnesses if _canonical(w) == key) for key in unique]
    both = [w for w in distinct if before.matches(w) and after.matches(w)]
    if both:
        return both
    plans = (*branch_plans(after.ast, probes), *branch_plans(before.ast, probes))
    found = find_minimal(planned_contexts(plans, now=now),
                         lambda ctx: before.matches(ctx) and after.matches(ctx), budget,
                         f"diff-base:{emu_key}")
    if isinstance(found.value, EvalContext):
        return [found.value]
    agreeing = [w for w in distinct if before.matches(w) == after.matches(w)]
    return agreeing or [empty_context(now)]


def diff_triggers(emu_key: str, before: TriggerUnderTest, after: TriggerUnderTest,
                  probes: Probes, bases: Sequence[EvalContext], budget: Budget) -> EmuDiff:
    """Compare two versions of one EMU's trigger. `probes` should be the merged probes of both
    versions and `bases` come from `diff_bases`."""
    points = tuple(point for base in bases for point in _sweep(before, after, base, probes))
    plans = (*branch_plans(after.ast, probes), *branch_plans(before.ast, probes),
             free_plan(probes))
    sample = draw_sample(planned_contexts(plans, now=bases[0].now), budget, f"diff:{emu_key}")
    cases = _cases(emu_key, points, before, after, sample)
    regions = tuple(_regions(emu_key, points, probes.atoms))
    unchanged = tuple(_unchanged(emu_key, points, probes.atoms))
    status: Literal["changed", "unchanged"] = "changed" if cases or regions else "unchanged"
    return EmuDiff(emu_key, status, points, cases, regions, unchanged, len(sample))


def added_emu(emu_key: str, witness: EvalContext | None) -> EmuDiff:
    cases = (DiffCase(emu_key, witness, False, True),) if witness is not None else ()
    return EmuDiff(emu_key, "added", cases=cases,
                   regions=(ChangedRegion(emu_key, None, "added", False, True),))


def removed_emu(emu_key: str, witness: EvalContext | None) -> EmuDiff:
    cases = (DiffCase(emu_key, witness, True, False),) if witness is not None else ()
    return EmuDiff(emu_key, "removed", cases=cases,
                   regions=(ChangedRegion(emu_key, None, "removed", True, False),))


# ---- sweeping ------------------------------------------------------------------------------

def _sweep(before: TriggerUnderTest, after: TriggerUnderTest, base: EvalContext,
           probes: Probes) -> Iterator[SweepPoint]:
    for row in probe_rows(base, probes):
        outcomes = [(ctx, before.matches(ctx), after.matches(ctx)) for ctx in row.family]
        was = any(b for _, b, _ in outcomes)
        now = any(a for _, _, a in outcomes)
        shown = (next((ctx for ctx, b, a in outcomes if b != a), None)
                 or next((ctx for ctx, b, a in outcomes if b or a), None) or row.family[0])
        yield SweepPoint(row.atom, row.value, was, now, shown)


def _cases(emu_key: str, points: tuple[SweepPoint, ...], before: TriggerUnderTest,
           after: TriggerUnderTest, sample: list[EvalContext]) -> tuple[DiffCase, ...]:
    seen: set[str] = set()
    cases: list[DiffCase] = []
    for point in points:
        key = _canonical(point.context)
        if point.before != point.after and key not in seen:
            seen.add(key)
            # The row's verdict is over its family; the context is the member that differs.
            cases.append(DiffCase(emu_key, point.context, before.matches(point.context),
                                  after.matches(point.context)))
    sampled: dict[str, DiffCase] = {}
    for ctx in sample:
        key = _canonical(ctx)
        if key in seen or key in sampled:
            continue
        was, now = before.matches(ctx), after.matches(ctx)
        if was != now:
            sampled[key] = DiffCase(emu_key, ctx, was, now)
    cases += [sampled[key] for key in sorted(sampled)[:MAX_SAMPLED_CASES]]
    return tuple(cases)


def _canonical(ctx: EvalContext) -> str:
    return json.dumps(context_to_json(ctx), sort_keys=True)


# ---- summarising ---------------------------------------------------------------------------

def _outcomes(points: tuple[SweepPoint, ...], atom: Atom) -> list[tuple[Any, set[tuple[bool, bool]]]]:
    """Each tested value of `atom` (sorted) with the (before, after) pairs seen at it."""
    found: list[tuple[Any, set[tuple[bool, bool]]]] = []
    for point in points:
        if point.atom != atom:
            continue
        for value, pairs in found:
            if same_value(value, point.value):
                pairs.add((point.before, point.after))
                break
        else:
            found.append((point.value, {(point.before, point.after)}))
    return sorted(found, key=lambda item: value_sort_key(item[0]))


def _regions(emu_key: str, points: tuple[SweepPoint, ...],
             atoms: tuple[Atom, ...]) -> Iterator[ChangedRegion]:
    for atom in atoms:
        outcomes = _outcomes(points, atom)
        for change in _CHANGES:
            numbers = [(v, change in pairs) for v, pairs in outcomes if is_number(v)]
            for run in _runs(numbers):
                yield ChangedRegion(emu_key, atom, _interval(run), *change)
            others = [v for v, pairs in outcomes if not is_number(v) and change in pairs]
            if others:
                yield ChangedRegion(emu_key, atom, format_values(others), *change)


def _runs(numbers: list[tuple[Any, bool]]) -> Iterator[list[Any]]:
    """Maximal runs of consecutive tested numbers that changed."""
    run: list[Any] = []
    for value, changed in numbers:
        if changed:
            run.append(value)
        elif run:
            yield run
            run = []
    if run:
        yield run


def _interval(run: list[Any]) -> str:
    if len(run) == 1:
        return format_values(run)
    return f"[{format_value(run[0])}, {format_value(run[-1])}]"


def _unchanged(emu_key: str, points: tuple[SweepPoint, ...],
               atoms: tuple[Atom, ...]) -> Iterator[UnchangedRegion]:
    for atom in atoms:
        outcomes = _outcomes(points, atom)
        for outcome in (True, False):
            values = tuple(v for v, pairs in outcomes if pairs == {(outcome, outcome)})
            if values:
                yield UnchangedRegion(emu_key, atom, values, outcome)
