"""Boundary tables: for each input of a trigger, the outcome at each of its probe values, with
the other inputs held at the witness's values (seed 000's refund table, derived).

A row varies one atom. Held fixed, a partner the atom is compared with (`amount_cents <=
refundable_cents`) would make most rows say "no" for the partner's sake, not the atom's, so a
row is a small *family* of contexts: the base with the atom set, then the same with each coupled
partner re-chosen from its probe values and the neighbours of the new value. The row matches
when one member does, and keeps that member (or the first) as its context. Rows for events
replace that event's history: none, one event inside the window, on its edge, just outside, in
the future, in another project, with a WHERE mismatch; for a `COUNT`, `n-1`, `n`, `n+1` events.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from topo.audit.dsl import EvalContext
from topo.audit.triggers.atoms import ABSENT, Atom, value_of, with_events, with_value
from topo.audit.triggers.boundaries import Probes, same_value
from topo.audit.triggers.evaluation import TriggerUnderTest
from topo.audit.triggers.events import matching_event, near_misses, window_of

__all__ = ["BoundaryRow", "ProbeRow", "probe_rows", "boundary_table", "empty_context",
           "value_sort_key"]


@dataclass(frozen=True, slots=True)
class ProbeRow:
    """One atom at one value: `value` is a probe value, ABSENT, or for an event atom a case
    label (`'inside PT15M'`) or a number of matching events; `family` the contexts tried."""

    atom: Atom
    value: Any
    family: tuple[EvalContext, ...]


@dataclass(frozen=True, slots=True)
class BoundaryRow:
    atom: Atom
    value: Any
    matches: bool
    context: EvalContext


def empty_context(now: datetime) -> EvalContext:
    """The base when there is no witness: nothing supplied, no history."""
    return EvalContext(state={}, tags={}, events=(), now=now)


def boundary_table(trigger: TriggerUnderTest, base: EvalContext,
                   probes: Probes) -> tuple[BoundaryRow, ...]:
    """The outcome of `trigger` at every probe row around `base`."""
    rows: list[BoundaryRow] = []
    for row in probe_rows(base, probes):
        matching = next((ctx for ctx in row.family if trigger.matches(ctx)), None)
        rows.append(BoundaryRow(row.atom, row.value, matching is not None,
                                matching or row.family[0]))
    return tuple(rows)


def probe_rows(base: EvalContext, probes: Probes) -> Iterator[ProbeRow]:
    """Every (atom, value) row around `base`, atoms in source order, values sorted."""
    for atom in probes.atoms:
        if atom.kind == "event":
            yield from _event_rows(base, atom, probes)
            continue
        for value in sorted(_row_values(base, atom, probes), key=value_sort_key):
            yield ProbeRow(atom, value, tuple(_family(base, atom, value, probes)))


def value_sort_key(value: Any) -> tuple:
    """Numbers ascending first, then booleans, strings (by text), event cases, absent last."""
    match value:
        case bool():
            return (1, int(value), "")
        case int() | float():
            return (0, value, "")
        case str():
            return (2, 0, value)
        case _ if value is ABSENT:
            return (4, 0, "")
    return (3, 0, str(value))


# ---- values and families -------------------------------------------------------------------

def _row_values(base: EvalContext, atom: Atom, probes: Probes) -> list[Any]:
    values = list(probes.values.get(atom, ()))
    values.append(value_of(base, atom))
    for partner in probes.couplings.get(atom, ()):
        values += _near(value_of(base, partner))
    kept: list[Any] = []
    for value in values:
        if not any(same_value(value, old) for old in kept):
            kept.append(value)
    if not any(v is ABSENT for v in kept):
        kept.append(ABSENT)
    return kept


def _family(base: EvalContext, atom: Atom, value: Any, probes: Probes) -> Iterator[EvalContext]:
    first = with_value(base, atom, value)
    yield first
    for partner in probes.couplings.get(atom, ()):
        for candidate in (*probes.values.get(partner, ()), *_near(value)):
            yield with_value(first, partner, candidate)


def _near(value: Any) -> list[Any]:
    """A number and its neighbours (whole steps for integers, next floats otherwise)."""
    match value:
        case bool():
            return []
        case int():
            return [value - 1, value, value + 1]
        case float() if math.isfinite(value):
            return [math.nextafter(value, -math.inf), value, math.nextafter(value, math.inf)]
    return []


# ---- events --------------------------------------------------------------------------------

def _event_rows(base: EvalContext, atom: Atom, probes: Probes) -> Iterator[ProbeRow]:
    seen: list[Any] = []
    for query in probes.queries.get(atom, ()):
        window = window_of(query, base.now)
        cases: list[tuple[Any, list]] = []
        for count in probes.counts.get(query, ()):
            inside = matching_event(query, base.state, base.now, window / 2)
            cases.append((count, [inside] * count))
        if query not in probes.counts:
            cases += [
                (f"inside {query.window.raw}",
                 [matching_event(query, base.state, base.now, window / 2)]),
                (f"on the {query.window.raw} edge",
                 [matching_event(query, base.state, base.now, window)]),
            ]
            cases += [(label, [event]) for label, event in near_misses(query, base.state,
                                                                        base.now)
                      if event.name == atom.key]
        for value, events in cases:
            if any(same_value(value, old) for old in seen):
                continue
            seen.append(value)
            yield ProbeRow(atom, value, (with_events(base, atom, events),))
    yield ProbeRow(atom, ABSENT, (with_events(base, atom, ()),))

