"""Plans for drawing contexts: per branch of a trigger, which values each atom may take and how
many matching events each event query gets.

A trigger of eight conjuncts is almost never satisfied by independent random values (each is
right one time in ten, so all eight one time in a hundred million). So the search draws branch
by branch (see `normal_form`): for each atom, only the probe values that satisfy every predicate
of the branch that reads that atom alone (`amount_cents > 0 AND amount_cents <= 5000` leaves
1, 4999, 5000); absent only when those predicates allow it; for each event query, only the
counts the branch allows. What remains to chance is what no single atom decides (`a <= b`, a
WHERE template), which is cheap to hit. The evaluator judges every drawn context, so a plan can
only make the search faster or slower, never a result wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from topo.audit.dsl import EvalContext, EvaluationError, evaluate
from topo.audit.dsl.ast import CompareOp, Count, EventQuery, Expr, StringLit
from topo.audit.triggers.atoms import ABSENT, Atom, ref_atom, refs_of, with_value
from topo.audit.triggers.boundaries import TRUTHINESS_TRAPS, Probes
from topo.audit.triggers.normal_form import DEFAULT_LIMIT, Term, normal_form

__all__ = ["ValuePlan", "EventPlan", "ContextPlan", "branch_plans", "free_plan"]

_SOME_INSTANT = datetime(2026, 1, 1, tzinfo=UTC)  # single-atom predicates never read the clock
_FREE_COUNTS = (0, 1, 2)


@dataclass(frozen=True, slots=True)
class ValuePlan:
    """A state or tag atom draws one of `values` (preference order), or is absent when
    `optional` (absent is the preferred choice then: shrinking drops what is not needed)."""

    atom: Atom
    values: tuple[Any, ...]
    optional: bool


@dataclass(frozen=True, slots=True)
class EventPlan:
    """An event query gets one of `counts` matching events; near misses (outside the window,
    another project, a WHERE mismatch) are added when `near_misses`."""

    query: EventQuery
    counts: tuple[int, ...]
    near_misses: bool = True


@dataclass(frozen=True, slots=True)
class ContextPlan:
    values: tuple[ValuePlan, ...]
    events: tuple[EventPlan, ...]


def branch_plans(ast: Expr, probes: Probes, *, absent: Atom | None = None,
                 limit: int = DEFAULT_LIMIT) -> tuple[ContextPlan, ...]:
    """One plan per branch of `ast` that the probe values can satisfy atom by atom; with
    `absent`, only branches that allow that atom to be absent, with it absent."""
    plans = (_branch_plan(terms, probes, absent)
             for terms in normal_form(ast, limit=limit).conjunctions)
    return tuple(plan for plan in plans if plan is not None)


def free_plan(probes: Probes) -> ContextPlan:
    """Anything goes: every probe value, the truthiness traps and null for every atom (absent
    preferred), a few matching events and near misses for every query."""
    values = tuple(ValuePlan(atom, (*probes.values[atom], *TRUTHINESS_TRAPS, None), True)
                   for atom in probes.atoms if atom.kind != "event")
    events = tuple(EventPlan(query, _candidate_counts(query, probes))
                   for atom in probes.atoms if atom.kind == "event"
                   for query in probes.queries.get(atom, ()))
    return ContextPlan(values, events)


# ---- one branch ----------------------------------------------------------------------------

def _branch_plan(terms: tuple[Term, ...], probes: Probes,
                 absent: Atom | None) -> ContextPlan | None:
    needs_templates = _templates_needed(terms)
    values: list[ValuePlan] = []
    for atom in probes.atoms:
        if atom.kind == "event":
            continue
        plan = _value_plan(atom, terms, probes, absent, atom.key in needs_templates)
        if plan is None:
            return None
        values.append(plan)
    events: list[EventPlan] = []
    for atom in probes.atoms:
        for query in probes.queries.get(atom, ()) if atom.kind == "event" else ():
            counts = _allowed_counts(query, terms, probes, atom == absent)
            if not counts:
                return None
            events.append(EventPlan(query, counts, near_misses=atom != absent))
    return ContextPlan(tuple(values), tuple(events))


def _value_plan(atom: Atom, terms: tuple[Term, ...], probes: Probes, absent: Atom | None,
                template: bool) -> ValuePlan | None:
    own = [t for t in terms if _reads_only(t.predicate, atom)]
    absent_allowed = not template and all(_holds(t, atom, ABSENT) for t in own)
    if atom == absent:
        return ValuePlan(atom, (), True) if absent_allowed else None
    pool = probes.values.get(atom, ())
    allowed = tuple(v for v in pool if all(_holds(t, atom, v) for t in own))
    if template:
        allowed = tuple(v for v in allowed if isinstance(v, (str, int, float)))
    if not allowed and not absent_allowed:
        return None
    return ValuePlan(atom, allowed, absent_allowed)


def _allowed_counts(query: EventQuery, terms: tuple[Term, ...], probes: Probes,
                    absent: bool) -> tuple[int, ...]:
    counts = _candidate_counts(query, probes)
    for term in terms:
        match term.predicate:
            case EventQuery() as other if other == query:
                counts = tuple(c for c in counts if (c > 0) is term.positive)
            case Count(query=other, op=op, threshold=threshold) if other == query:
                limit = Decimal(threshold.value)
                counts = tuple(c for c in counts if _compare(op, c, limit) is term.positive)
    return tuple(c for c in counts if c == 0) if absent else counts


def _candidate_counts(query: EventQuery, probes: Probes) -> tuple[int, ...]:
    return tuple(sorted(set(_FREE_COUNTS) | set(probes.counts.get(query, ()))))


def _templates_needed(terms: tuple[Term, ...]) -> set[str]:
    """State keys a positive event query of the branch interpolates: they must be present."""
    keys: set[str] = set()
    for term in terms:
        match term:
            case Term(EventQuery(where=where), True) | Term(Count(query=EventQuery(where=where)),
                                                            True):
                keys |= {w.value.template_key for w in where
                         if isinstance(w.value, StringLit) and w.value.template_key}
    return keys


# ---- evaluating one predicate on one atom --------------------------------------------------

def _holds(term: Term, atom: Atom, value: Any) -> bool:
    """Does `term` hold when `atom` is `value` and nothing else is set? An evaluation error
    counts as "maybe": the search will find out."""
    context = with_value(EvalContext(state={}, tags={}, events=(), now=_SOME_INSTANT), atom,
                         value)
    try:
        return evaluate(term.predicate, context) is term.positive
    except EvaluationError:
        return True


def _reads_only(predicate: Expr, atom: Atom) -> bool:
    refs = refs_of(predicate)
    return bool(refs) and all(ref_atom(ref) == atom for ref in refs)


def _compare(op: CompareOp, a: int, b: Decimal) -> bool:
    sign = (a > b) - (a < b)
    return {"==": sign == 0, "!=": sign != 0, "<": sign < 0, "<=": sign <= 0, ">": sign > 0,
            ">=": sign >= 0}[op]
