"""Hypothesis strategies shared by the tests and `topo fuzz`.

Three sections with separate owners: trigger ASTs (generated with `st.recursive`, the parser
engineer's), evaluation contexts (the evaluator's) and planned contexts (the fuzzer's: contexts
that follow the branch plans of `audit.triggers.plans`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

from topo.audit.dsl.deps import operand_refs
from topo.audit.dsl.ast import (And, Arith, BoolLit, Compare, Count, EventQuery, Exists, Expr,
                                InList, Not, NumberLit, Or, StateRef, StringLit, StrOp, TagRef,
                                Truthy)
from topo.audit.dsl.context import EvalContext, Event
from topo.audit.dsl.ast import Duration, EventRef, ListLit, WhereFilter  # trigger ASTs
from topo.audit.dsl.durations import parse_duration  # trigger ASTs
from topo.audit.triggers.atoms import ABSENT  # planned contexts
from topo.audit.triggers.events import matching_event, near_misses, window_of  # planned contexts
from topo.audit.triggers.plans import ContextPlan, EventPlan, ValuePlan  # planned contexts

__all__ = [
    # trigger ASTs
    "triggers", "predicates", "comparisons", "arithmetic", "event_queries", "counts",
    "durations", "where_filters", "state_refs", "tag_refs", "string_lits", "number_lits",
    # contexts
    "contexts", "CONTEXT_NOW",
    # planned contexts (topo fuzz)
    "planned_contexts",
]


# ==== trigger ASTs ==========================================================================
# (owned by the lexer/parser engineer)
# Valid ASTs only: every generated tree is one `parse_trigger` accepts, so that the round trip
# `parse(fmt(ast)) == ast` can be asserted for all of them. The constraints that keep it so:
# a comparison has an accessor on its left; arithmetic works on accessors and numbers; WHERE
# values are plain strings (no braces), numbers or templates naming a valid state key; string
# values never end in a lone backslash nor put one before a quote (the lexer cannot spell that).

_SEGMENT = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
_RESERVED_NAMES = frozenset({"true", "false", "state", "tag", "event"})
_PATTERNS = ("^[A-Z]{3}-\\d{4}$", "^EU-", "@company\\.com$", "(?i)urgent", "a|b", "", "\\d+")
_PLAIN = st.text(st.characters(blacklist_characters="\\\n{}", blacklist_categories=("Cs",)),
                 max_size=10)
_ESCAPE = st.sampled_from(["\\d", "\\w", "\\.", "\\\\", "\\n", "\\s"])


def _state_key(parts: int | None = None) -> st.SearchStrategy[str]:
    sizes = st.integers(2, 7) if parts is None else st.just(parts)
    return sizes.flatmap(lambda n: st.lists(_SEGMENT, min_size=n, max_size=n)).map(".".join)


def state_refs() -> st.SearchStrategy[StateRef]:
    return st.builds(StateRef, _state_key())


def tag_refs() -> st.SearchStrategy[TagRef]:
    return st.builds(TagRef, _SEGMENT)


def _refs_strategy() -> st.SearchStrategy[StateRef | TagRef]:
    return st.one_of(state_refs(), tag_refs())


def string_lits() -> st.SearchStrategy[StringLit]:
    """Strings with quotes and verbatim backslash escapes (`\\d`), never a lone backslash."""
    chunks = st.lists(st.one_of(_PLAIN, _PLAIN, _ESCAPE), max_size=4).map("".join)
    return st.builds(StringLit, chunks)


def number_lits(min_value: int = -10**6, max_value: int = 10**6) -> st.SearchStrategy[NumberLit]:
    integers = st.integers(min_value, max_value).map(lambda n: NumberLit(n, str(n)))
    decimals = st.decimals(min_value, max_value, places=2, allow_nan=False,
                           allow_infinity=False).map(lambda d: NumberLit(d, format(d, "f")))
    return st.one_of(integers, integers, decimals)


def durations() -> st.SearchStrategy[Duration]:
    """ISO-8601 windows the DSL accepts, with their exact seconds (via `parse_duration`)."""
    amount = st.one_of(st.none(), st.integers(0, 400))
    seconds = st.one_of(st.none(), st.integers(0, 90).map(str),
                        st.decimals(0, 90, places=1).map(lambda d: format(d, "f")))
    date = st.tuples(amount, amount, amount, amount)
    time = st.tuples(amount, amount, seconds)
    return st.tuples(date, time).map(_duration_text).filter(bool).map(
        lambda raw: Duration(raw, parse_duration(raw)))


def _duration_text(parts: tuple[tuple, tuple]) -> str:
    date, time = parts
    date_text = "".join(f"{n}{u}" for n, u in zip(date, "YMWD") if n is not None)
    time_text = "".join(f"{n}{u}" for n, u in zip(time, "HMS") if n is not None)
    if not date_text and not time_text:
        return ""
    return "P" + date_text + (f"T{time_text}" if time_text else "")


def _where_values() -> st.SearchStrategy[StringLit | NumberLit]:
    plain = st.builds(StringLit, _PLAIN)
    template = _state_key().flatmap(lambda key: st.sampled_from(
        [StringLit("{{%s}}" % key), StringLit("{{state.%s}}" % key)]))
    return st.one_of(plain, template, number_lits())


def where_filters() -> st.SearchStrategy[WhereFilter]:
    attrs = st.from_regex(r"[a-z_][a-z0-9_]{0,9}", fullmatch=True).filter(
        lambda name: name not in _RESERVED_NAMES)
    return st.builds(WhereFilter, attrs, _where_values())


def event_queries(project: bool = True) -> st.SearchStrategy[EventQuery]:
    projects = st.one_of(st.none(), _SEGMENT) if project else st.none()
    events = st.builds(EventRef, _SEGMENT, _SEGMENT, _SEGMENT, projects)
    wheres = st.lists(where_filters(), max_size=3).map(tuple)
    return st.builds(EventQuery, events, wheres, durations())


def counts() -> st.SearchStrategy[Count]:
    return st.builds(Count, event_queries(project=False), st.sampled_from(_COMPARE_OPS),
                     number_lits(0, 50), parenthesized=st.booleans())


_COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=")
_STRING_OPS = ("STARTS_WITH", "ENDS_WITH", "CONTAINS", "MATCHES")


def arithmetic() -> st.SearchStrategy[StateRef | TagRef | NumberLit | Arith]:
    leaves = st.one_of(_refs_strategy(), number_lits())
    return st.recursive(leaves, lambda inner: st.builds(
        Arith, st.sampled_from(("+", "-", "*", "/")), inner, inner), max_leaves=5)


def _has_accessor(node: object) -> bool:
    match node:
        case StateRef() | TagRef():
            return True
        case Arith(left=left, right=right):
            return _has_accessor(left) or _has_accessor(right)
    return False


def comparisons() -> st.SearchStrategy[Compare]:
    left = st.one_of(_refs_strategy(), arithmetic().filter(_has_accessor))
    right = st.one_of(_refs_strategy(), number_lits(), string_lits(),
                      st.builds(BoolLit, st.booleans()), arithmetic())
    return st.builds(Compare, st.sampled_from(_COMPARE_OPS), left, right)


def _list_items() -> st.SearchStrategy[ListLit]:
    item = st.one_of(string_lits(), number_lits(), st.builds(BoolLit, st.booleans()))
    return st.lists(item, max_size=4).map(lambda items: ListLit(tuple(items)))


def _string_operations() -> st.SearchStrategy[StrOp]:
    plain = st.builds(StrOp, st.sampled_from(_STRING_OPS[:3]), _refs_strategy(), string_lits())
    regex = st.builds(StrOp, st.just("MATCHES"), _refs_strategy(),
                      st.sampled_from(_PATTERNS).map(StringLit))
    return st.one_of(plain, regex)


def predicates() -> st.SearchStrategy[Expr]:
    """One atom: a comparison, presence, shorthand, membership, string test, event or count."""
    refs = _refs_strategy()
    return st.one_of(
        comparisons(), st.builds(Exists, refs), st.builds(Truthy, refs),
        st.builds(InList, refs, _list_items()), _string_operations(), event_queries(), counts())


def triggers(max_leaves: int = 8) -> st.SearchStrategy[Expr]:
    """Whole trigger ASTs: predicates joined by AND, OR and NOT, up to `max_leaves` atoms."""
    return st.recursive(predicates(), lambda inner: st.one_of(
        st.builds(And, inner, inner), st.builds(Or, inner, inner), st.builds(Not, inner)),
        max_leaves=max_leaves)



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
    for ref in (r for operand in operands for r in operand_refs(operand)):
        table = reads.state if isinstance(ref, StateRef) else reads.tags
        table.setdefault(ref.key if isinstance(ref, StateRef) else ref.kind, []).extend(literals)


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
    matching = [_matching(p) for p in patterns] * 2  # a match is the rare, interesting case
    return st.one_of(pool, pool, pool, generic, *matching)


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


# ==== planned contexts (topo fuzz) ==========================================================
# Contexts drawn from `audit.triggers.plans`: per branch of a trigger, the atoms' allowed probe
# values and the number of matching events per query. Shrinking prefers an absent atom, then
# the earliest allowed value, then fewer events, so a found witness shrinks to the simplest
# context of the earliest branch.

def planned_contexts(plans: Sequence[ContextPlan], *, now: datetime = CONTEXT_NOW,
                     project: str | None = None) -> st.SearchStrategy[EvalContext]:
    """EvalContexts at `now` following one of `plans` (nothing when there is no plan)."""
    if not plans:
        return st.nothing()
    return st.one_of([_planned(plan, now, project) for plan in plans])


def _planned(plan: ContextPlan, now: datetime,
             project: str | None) -> st.SearchStrategy[EvalContext]:
    choices = [(item.atom, _planned_value(item)) for item in plan.values]

    @st.composite
    def build(draw: st.DrawFn) -> EvalContext:
        state: dict[str, Any] = {}
        tags: dict[str, Any] = {}
        for atom, strategy in choices:
            value = draw(strategy)
            if value is not ABSENT:
                (state if atom.kind == "state" else tags)[atom.key] = value
        events: list[Event] = []
        for item in plan.events:
            events += draw(_planned_events(item, state, now))
        return EvalContext(state=state, tags=tags, events=tuple(events), now=now,
                           project=project)

    return build()


def _planned_value(item: ValuePlan) -> st.SearchStrategy[Any]:
    if not item.values:
        return st.just(ABSENT)
    present = st.sampled_from(item.values)
    return st.one_of(st.just(ABSENT), present) if item.optional else present


def _planned_events(item: EventPlan, state: dict[str, Any],
                    now: datetime) -> st.SearchStrategy[list[Event]]:
    window = window_of(item.query, now)
    # One age for all matching events of a query: a COUNT >= 50 witness then shrinks as fast
    # as a single event does.
    ages = st.sampled_from([window / 2, timedelta(0), window])
    matching = st.tuples(st.sampled_from(item.counts), ages).map(
        lambda pair: [matching_event(item.query, state, now, pair[1])] * pair[0])
    if not item.near_misses:
        return matching
    misses = [event for _, event in near_misses(item.query, state, now)]
    extra = st.lists(st.sampled_from(misses), max_size=2)
    return st.tuples(matching, extra).map(lambda pair: pair[0] + pair[1])
