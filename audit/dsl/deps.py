"""What a trigger reads: its state keys, tag kinds and events, and how it reads them.

Reachability review (seed 000, "Reachability review") starts from this list: each input must be
supplied, each event emitted. Three facts per atom drive the policy lints:

- **polarity**: under an odd number of NOTs an atom is *negative*; a negated event is true when
  the event was never emitted, which makes it a possible ghost guard.
- **guarded**: an explicit `EXISTS` on the accessor holds whenever the whole trigger is true
  (it sits in every branch that can make the trigger true, never under NOT).
- **templates**: the state keys a WHERE value interpolates (`'{{customer.id}}'`). Unguarded,
  an unresolved placeholder matches nothing, and under NOT that makes the trigger true.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from topo.audit.dsl.ast import (And, Arith, Compare, Count, Duration, EventQuery, Exists, Expr,
                                InList, Not, Operand, Or, StateRef, StringLit, StrOp, TagRef,
                                TextSpan, Truthy)
from topo.audit.dsl._event_syntax import PLACEHOLDER

__all__ = ["Dependency", "Template", "dependencies", "guarded_keys", "templates", "operand_refs",
           "holds_at_zero"]

Polarity = Literal["positive", "negative"]


@dataclass(frozen=True, slots=True)
class Dependency:
    """One atom occurrence. `key` is the state key without `state.`, the tag kind, or the event
    name `subject.verb.object` (its project, if any, is in `project`).

    `holds_when_absent`: the trigger's view of this atom is satisfied when the input is
    missing or the event never happened: a negated atom, or `COUNT … == 0` / `< n`.
    """

    kind: Literal["state", "tag", "event"]
    key: str
    polarity: Polarity = "positive"
    project: str | None = None
    under_count: bool = False
    where_attrs: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()
    window: Duration | None = None
    guarded: bool = False
    holds_when_absent: bool = False
    span: TextSpan = field(default=TextSpan(0, 0), compare=False)
    # Events: (attribute, state key) for each WHERE filter whose value is one placeholder
    # (`customer_id == '{{customer.id}}'`), the entity the filter compares the attribute with.
    where_keys: tuple[tuple[str, str], ...] = ()

    @property
    def accessor(self) -> str:
        """As written in a trigger: `state.a.b`, `tag.k`, `event.[project.]s.v.o`."""
        project = f"{self.project}." if self.project else ""
        return f"{self.kind}.{project}{self.key}"


@dataclass(frozen=True, slots=True)
class Template:
    """A `{{a.b}}` placeholder in a WHERE value. `key` is the state key (legacy
    `{{state.a.b}}` normalised); `text` is the placeholder as written."""

    key: str
    text: str
    event: str
    polarity: Polarity
    guarded: bool
    span: TextSpan = field(default=TextSpan(0, 0), compare=False)

    @property
    def legacy(self) -> bool:
        return self.text[2:].strip().startswith("state.")


def guarded_keys(ast: Expr) -> frozenset[str]:
    """Accessors (`state.a.b`, `tag.k`) whose explicit EXISTS holds whenever `ast` is true.

    >>> from topo.audit.dsl import parse_trigger
    >>> text = "state.a.b EXISTS AND (tag.k EXISTS OR state.a.b EXISTS)"
    >>> sorted(guarded_keys(parse_trigger(text).ast))
    ['state.a.b']
    """
    match ast:
        case Exists(ref):
            return frozenset({_accessor(ref)})
        case And(left, right):
            return guarded_keys(left) | guarded_keys(right)
        case Or(left, right):
            return guarded_keys(left) & guarded_keys(right)
    return frozenset()  # NOT, and every other predicate, guarantees no presence


def dependencies(ast: Expr) -> tuple[Dependency, ...]:
    """Every state, tag and event atom of `ast`, in source (left-to-right) order."""
    guards = guarded_keys(ast)
    return tuple(_atoms(ast, False, guards))


def templates(ast: Expr) -> tuple[Template, ...]:
    """Every WHERE placeholder of `ast`, in source order, with its polarity and guard."""
    guards = guarded_keys(ast)
    found: list[Template] = []
    for query, negated in _event_queries(ast, False):
        event = _event_name(query)
        for where in query.where:
            if isinstance(where.value, StringLit):
                for text, key in _placeholders(where.value.value):
                    found.append(Template(key, text, event, _polarity(negated),
                                          f"state.{key}" in guards, where.value.span))
    return tuple(found)


# ---- walking -------------------------------------------------------------------------------

def _atoms(node: Expr, negated: bool, guards: frozenset[str]) -> Iterator[Dependency]:
    match node:
        case And(left, right) | Or(left, right):
            yield from _atoms(left, negated, guards)
            yield from _atoms(right, negated, guards)
        case Not(operand):
            yield from _atoms(operand, not negated, guards)
        case Compare(_, left, right):
            for ref in (*operand_refs(left), *operand_refs(right)):
                yield _value_dependency(ref, negated, guards)
        case Exists(ref) | Truthy(ref) | InList(ref) | StrOp(_, ref):
            yield _value_dependency(ref, negated, guards)
        case EventQuery():
            yield _event_dependency(node, negated, False)
        case Count(query, op, threshold):
            admits_zero = _holds(op, 0, threshold.value)
            yield _event_dependency(query, negated, True, admits_zero)


def operand_refs(operand: Operand) -> Iterator[StateRef | TagRef]:
    """The state and tag accessors an operand reads, left to right (through arithmetic)."""
    match operand:
        case StateRef() | TagRef():
            yield operand
        case Arith(_, left, right):
            yield from operand_refs(left)
            yield from operand_refs(right)


def _value_dependency(ref: StateRef | TagRef, negated: bool,
                      guards: frozenset[str]) -> Dependency:
    kind: Literal["state", "tag"] = "state" if isinstance(ref, StateRef) else "tag"
    key = ref.key if isinstance(ref, StateRef) else ref.kind
    return Dependency(kind, key, _polarity(negated), guarded=_accessor(ref) in guards,
                      holds_when_absent=negated, span=ref.span)


def _event_dependency(query: EventQuery, negated: bool, under_count: bool,
                      admits_zero: bool = False) -> Dependency:
    keys: list[str] = []
    for where in query.where:
        if isinstance(where.value, StringLit):
            keys += [key for _, key in _placeholders(where.value.value) if key not in keys]
    return Dependency("event", query.event.name, _polarity(negated), query.event.project,
                      under_count, tuple(w.attr for w in query.where), tuple(keys), query.window,
                      holds_when_absent=admits_zero != negated, span=query.span,
                      where_keys=tuple(_where_keys(query)))


def _where_keys(query: EventQuery) -> Iterator[tuple[str, str]]:
    for where in query.where:
        if isinstance(where.value, StringLit):
            found = list(_placeholders(where.value.value))
            if len(found) == 1 and found[0][0] == where.value.value.strip():
                yield where.attr, found[0][1]


def _event_queries(node: Expr, negated: bool) -> Iterator[tuple[EventQuery, bool]]:
    match node:
        case And(left, right) | Or(left, right):
            yield from _event_queries(left, negated)
            yield from _event_queries(right, negated)
        case Not(operand):
            yield from _event_queries(operand, not negated)
        case EventQuery():
            yield node, negated
        case Count(query):
            yield query, negated


# ---- small helpers -------------------------------------------------------------------------

def _placeholders(value: str) -> Iterator[tuple[str, str]]:
    """(text as written, normalised state key) for each `{{…}}` in a WHERE string."""
    for match in PLACEHOLDER.finditer(value):
        inner = match.group(1).strip()
        yield match.group(), inner[len("state."):] if inner.startswith("state.") else inner


def _accessor(ref: StateRef | TagRef) -> str:
    return f"state.{ref.key}" if isinstance(ref, StateRef) else f"tag.{ref.kind}"


def _event_name(query: EventQuery) -> str:
    project = f"{query.event.project}." if query.event.project else ""
    return project + query.event.name


def _polarity(negated: bool) -> Polarity:
    return "negative" if negated else "positive"


def holds_at_zero(count: Count) -> bool:
    """Whether a COUNT clause holds on empty history (`COUNT … < 3` does, `>= 1` does not)."""
    return _holds(count.op, 0, count.threshold.value)


def _holds(op: str, count: int, threshold: object) -> bool:
    """Whether `count <op> threshold` holds; used for a COUNT on empty history."""
    match op:
        case "==":
            return count == threshold
        case "!=":
            return count != threshold
        case "<":
            return count < threshold  # type: ignore[operator]
        case "<=":
            return count <= threshold  # type: ignore[operator]
        case ">":
            return count > threshold  # type: ignore[operator]
        case ">=":
            return count >= threshold  # type: ignore[operator]
    return False
