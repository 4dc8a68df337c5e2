"""Hypothesis strategies shared by the tests and `topo fuzz`.

Two sections with separate owners: trigger ASTs (generated with `st.recursive`, the parser
engineer's) and evaluation contexts (the evaluator's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

from audit.dsl.ast import (And, Arith, BoolLit, Compare, Count, EventQuery, Exists, Expr, InList,
                           Not, NumberLit, Or, StateRef, StringLit, StrOp, TagRef, Truthy)
from audit.dsl.context import EvalContext, Event

__all__ = ["contexts", "CONTEXT_NOW"]


# ==== trigger ASTs ==========================================================================
# (owned by the lexer/parser engineer)


# ==== contexts ==============================================================================
# Evaluation contexts. Given a trigger, the strategy concentrates on what the trigger reads:
# each state key and tag kind is absent, null, a truthiness trap, or a value at or next to the
# literals it is compared with; each event query gets events inside, exactly at and just outside
# its window, in the future, in other projects, under other names, and with WHERE attributes
# that match, mismatch or are missing. Contexts are evaluated at the fixed CONTEXT_NOW so that
# printed witnesses are reproducible.

CONTEXT_NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

_TRAPS: tuple[Any, ...] = (None, "unknown", "false", "No", "0", "", 0, -1, 1, True, False)
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)  # `now - offset` must stay a valid datetime
_OMIT = object()  # an attribute candidate meaning "leave the attribute out"


@dataclass
class _Reads:
    """What a trigger reads: literal values seen next to each state key and tag kind, MATCHES
    patterns applied to them, and event queries with how many events each may want (a COUNT
    needs enough to cross its threshold). Built once per call, never shared."""

    state: dict[str, list[Any]] = field(default_factory=dict)
    tags: dict[str, list[Any]] = field(default_factory=dict)
    patterns: dict[str, list[str]] = field(default_factory=dict)
    queries: list[tuple[EventQuery, int]] = field(default_factory=list)


def contexts(ast: Expr | None = None, *, now: datetime = CONTEXT_NOW,
             project: str | None = None) -> st.SearchStrategy[EvalContext]:
    """EvalContexts at `now`; focused on the dependencies of `ast` when one is given."""
    reads = _reads(ast) if ast is not None else _generic_reads()
    return _contexts(reads, now, project)


def _reads(ast: Expr) -> _Reads:
    reads = _Reads()
    stack: list[Any] = [ast]
    while stack:
        node = stack.pop()
        match node:
            case Or(left=left, right=right) | And(left=left, right=right):
                stack += [left, right]
            case Not(operand=operand):
                stack.append(operand)
            case Compare(left=left, right=right):
                _note(reads, [left, right], _literals(left) + _literals(right))
            case Exists(ref=ref) | Truthy(ref=ref):
                _note(reads, [ref], [])
            case InList(ref=ref, items=items):
                _note(reads, [ref], [item.value for item in items.items])
            case StrOp(op="MATCHES", ref=ref, pattern=pattern):
                _note(reads, [ref], [pattern.value])
                reads.patterns.setdefault(_key(ref), []).append(pattern.value)
            case StrOp(ref=ref, pattern=pattern):
                text = pattern.value
                _note(reads, [ref], [text, "x" + text, text + "x", "x" + text + "x"])
            case EventQuery() as query:
                reads.queries.append((query, 3))
            case Count(query=query, threshold=threshold):
                reads.queries.append((query, min(max(int(threshold.value) + 2, 3), 12)))
    for query, _ in reads.queries:
        for where in query.where:
            if isinstance(where.value, StringLit) and where.value.template_key is not None:
                reads.state.setdefault(where.value.template_key, []).extend(["c1", 42, True])
    return reads


def _generic_reads() -> _Reads:
    """No trigger given: a few plausible keys and tags, no event queries."""
    return _Reads(state={"user.tier": ["gold"], "user.verified": [True], "order.total": [100]},
                  tags={"intent": ["refund"]})


def _key(ref: StateRef | TagRef) -> str:
    """State keys as they are; tag kinds marked so they cannot collide with a state key."""
    return ref.key if isinstance(ref, StateRef) else "tag:" + ref.kind


def _note(reads: _Reads, operands: list[Any], literals: list[Any]) -> None:
    for ref in (r for operand in operands for r in _refs(operand)):
        table = reads.state if isinstance(ref, StateRef) else reads.tags
        table.setdefault(ref.key if isinstance(ref, StateRef) else ref.kind, []).extend(literals)


def _refs(operand: Any) -> list[StateRef | TagRef]:
    match operand:
        case StateRef() | TagRef():
            return [operand]
        case Arith(left=left, right=right):
            return _refs(left) + _refs(right)
        case _:
            return []


def _literals(operand: Any) -> list[Any]:
    match operand:
        case StringLit(value=value) | NumberLit(value=value) | BoolLit(value=value):
            return [value]
        case Arith(left=left, right=right):
            return _literals(left) + _literals(right)
        case _:
            return []


def _neighbours(value: Any) -> list[Any]:
    """The literal and the values around it that flip comparisons and membership."""
    match value:
        case bool():
            return [value, not value, str(value).lower(), int(value)]
        case int() | Decimal():
            number = Decimal(value)
            near = [number, number - 1, number + 1, number - Decimal("0.5"), -number]
            return [_plain(n) for n in near] + [str(value), f" {value} "]
        case str():
            return [value, value.upper(), value.title(), f" {value} ", value[1:], value[:-1]]
        case _:
            return [value]


def _plain(number: Decimal) -> int | Decimal:
    return int(number) if number == number.to_integral_value() else number


def _value_strategy(literals: list[Any], patterns: list[str]) -> st.SearchStrategy[Any]:
    candidates = [n for value in literals for n in _neighbours(value)]
    pool = st.sampled_from(_dedupe(candidates + list(_TRAPS)))
    generic = st.one_of(st.integers(-1000, 1000), st.text(max_size=6), st.booleans(),
                        st.decimals(-1000, 1000, places=2, allow_nan=False))
    return st.one_of(pool, pool, pool, generic, *(_matching(p) for p in patterns))


def _matching(pattern: str) -> st.SearchStrategy[str]:
    """Strings `pattern` finds, when Python's `re` can compile it (else nothing extra)."""
    try:
        return st.from_regex(re.compile(pattern)).filter(lambda s: len(s) <= 200)
    except (re.error, TypeError, ValueError):
        return st.nothing()


def _dedupe(values: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for value in values:
        if not any(type(value) is type(old) and value == old for old in seen):
            seen.append(value)
    return seen


def _contexts(reads: _Reads, now: datetime,
              project: str | None) -> st.SearchStrategy[EvalContext]:
    state_values = {key: _value_strategy(lits, reads.patterns.get(key, []))
                    for key, lits in sorted(reads.state.items())}
    tag_values = {kind: _value_strategy(lits, reads.patterns.get("tag:" + kind, []))
                  for kind, lits in sorted(reads.tags.items())}

    @st.composite
    def build(draw: st.DrawFn) -> EvalContext:
        state = draw(st.fixed_dictionaries({}, optional=state_values))
        tags = draw(st.fixed_dictionaries({}, optional=tag_values))
        if tags and draw(st.booleans()):
            tags = _upper_kinds(tags)
        events: list[Event] = []
        for query, most in reads.queries:
            events += draw(st.lists(_events_for(query, state, now), max_size=most))
        return EvalContext(state=state, tags=tags, events=tuple(draw(st.permutations(events))),
                           now=now, project=project)

    return build()


def _upper_kinds(tags: dict[str, Any]) -> dict[str, Any]:
    """The same tags under upper-case kinds (the evaluator looks kinds up normalised); kept
    as they are if that would merge two kinds."""
    upper = {kind.upper(): value for kind, value in tags.items()}
    return upper if len(upper) == len(tags) else tags


def _events_for(query: EventQuery, state: dict[str, Any],
                now: datetime) -> st.SearchStrategy[Event]:
    """Events for one query, biased towards matching it (about half do) so that both outcomes
    of the query, and of COUNT thresholds, are common."""
    ref = query.event
    names = st.sampled_from([ref.name] * 3 + [f"{ref.subject}.{ref.verb}.other"])
    projects = st.sampled_from([ref.project] * 3 + _dedupe([None, "other", "another"]))
    oldest = now - _EARLIEST
    window = (timedelta(microseconds=int(query.window.seconds * 1_000_000))
              if query.window.seconds < oldest.total_seconds() else oldest)
    offsets = st.sampled_from([timedelta(0), window, window / 2, window / 2,
                               window + timedelta(microseconds=1), timedelta(seconds=-1),
                               window * 2 + timedelta(hours=1)])
    attributes = st.tuples(*(st.sampled_from(_attribute_candidates(w.value, state))
                             for w in query.where)).map(
        lambda values: {w.attr: v for w, v in zip(query.where, values) if v is not _OMIT})
    return st.builds(lambda name, offset, attrs, proj: Event(
        name, now - min(offset, oldest), attrs, proj), names, offsets, attributes, projects)


def _attribute_candidates(value: StringLit | NumberLit, state: dict[str, Any]) -> list[Any]:
    """Attribute values that match a WHERE filter (weighted), mismatch it, are null or are
    missing (_OMIT)."""
    if isinstance(value, NumberLit):
        match = [value.value] * 3 + [str(value.value)]
        return match + [Decimal(value.value) + 1, "zzz", None, _OMIT]
    key = value.template_key
    if key is None:
        return [value.value] * 4 + _dedupe([value.value.upper(), "zzz", None, _OMIT])
    resolved = state.get(key)
    # What the evaluator's template stringification gives: bools in JSON spelling.
    matching = "true" if resolved is True else "false" if resolved is False else resolved
    if isinstance(matching, (list, dict)) or matching is None:
        matching = "c1"
    return [matching] * 4 + [value.value, "c1", "zzz", None, _OMIT]
