"""A sound proof that a trigger can never be true, for a decidable fragment of the DSL.

The fuzzer's witness search can only ever say "none found"; this module can say "none exists",
for the contradictions people actually write. It expands the trigger into its branches (see
`normal_form`) and proves each branch contradictory with one of these rules:

- **A predicate and its negation**: `X EXISTS AND NOT X EXISTS`, `tag.t AND NOT tag.t`.
- **Presence**: a positive predicate reads `x` (so `x` must be present) while `NOT x EXISTS`.
- **Numeric bounds on one key**: `>`, `>=`, `<`, `<=`, `==`, `!=` against number literals,
  `IN` a list of numbers only, and, once one of those makes the key numeric, negated
  comparisons as their complements (`NOT x > 5` is `x <= 5` for a number). The bounds are over
  the reals: `x > 2 AND x < 3` is satisfiable (2.5).
- **A pinned value**: `state.a.b == 'gold'` (state strings compare exactly) or `x == true` fixes
  the value, so every other predicate on that key alone is simply evaluated with it: `== 'a'`
  and `== 'b'`, `== 'a'` and `IN ['b']`, `== false` and the shorthand. A tag compared with a
  string is only known up to normalisation, so only `==`, `!=`, `IN` and `EXISTS` are checked
  against it.
- **Event counts**: per event query, counts are integers ≥ 0; an event query asks for ≥ 1, its
  negation for 0, `COUNT … op n` (or its negation, a count is never absent) for the rest.

Anything else (arithmetic, accessor-vs-accessor, string operators, relations between different
queries) is ignored, which is sound: dropping a constraint can only make a branch *more*
satisfiable. When a branch cannot be proven contradictory, or the expansion was cut off at its
limit, there is no proof (None), and `topo fuzz` reports reachability as unknown when its search
finds no witness either.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal

from topo.audit.dsl import EvalContext, EvaluationError, evaluate, format_trigger
from topo.audit.dsl.ast import (BoolLit, Compare, CompareOp, Count, EventQuery, Exists, Expr,
                                InList, Not, NumberLit, StateRef, StringLit, TagRef)
from topo.audit.triggers.atoms import Atom, ref_atom, refs_of, with_value
from topo.audit.triggers.normal_form import DEFAULT_LIMIT, Term, normal_form

__all__ = ["contradiction"]

_COMPLEMENT: dict[str, CompareOp] = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=",
                                     "!=": "=="}
_ORDERING = frozenset({"<", "<=", ">", ">=", "=="})
_SOME_INSTANT = datetime(2026, 1, 1, tzinfo=UTC)  # single-key predicates never read the clock


def contradiction(ast: Expr, *, limit: int = DEFAULT_LIMIT) -> str | None:
    """Why no context can make `ast` true, or None when that cannot be proven.

    >>> from topo.audit.dsl import parse_trigger
    >>> contradiction(parse_trigger("state.order.total > 1000 AND state.order.total < 100").ast)
    'no value of state.order.total satisfies > 1000, < 100'
    >>> contradiction(parse_trigger("state.order.total > 1000").ast) is None
    True
    """
    form = normal_form(ast, limit=limit)
    if not form.complete:
        return None
    reasons: list[str] = []
    for conjunction in form.conjunctions:
        reason = branch_contradiction(conjunction)
        if reason is None:
            return None
        reasons.append(reason)
    if len(reasons) == 1:
        return reasons[0]
    return f"each of its {len(reasons)} alternatives is contradictory: " + "; ".join(reasons)


def branch_contradiction(terms: tuple[Term, ...]) -> str | None:
    """Why the conjunction `terms` cannot hold, or None."""
    return (_complementary(terms) or _presence(terms) or _numeric(terms) or _pinned(terms)
            or _counts(terms))


# ---- rules ---------------------------------------------------------------------------------

def _complementary(terms: tuple[Term, ...]) -> str | None:
    present = set(terms)
    for term in terms:
        if term.positive and Term(term.predicate, False) in present:
            text = format_trigger(term.predicate)
            return f"{text} and {format_trigger(Not(term.predicate))} cannot both hold"
    return None


def _presence(terms: tuple[Term, ...]) -> str | None:
    required: dict[Atom, Expr] = {}
    for term in terms:
        if term.positive and not isinstance(term.predicate, (EventQuery, Count)):
            for atom in _atoms_read(term.predicate):
                required.setdefault(atom, term.predicate)
    for term in terms:
        match term:
            case Term(Exists(ref=ref), False) if ref_atom(ref) in required:
                accessor = ref_atom(ref).accessor
                return (f"{format_trigger(required[ref_atom(ref)])} needs {accessor} present, "
                        f"but NOT {accessor} EXISTS")
    return None


@dataclass
class _Bounds:
    """What a conjunction says about one number: an interval, pinned points, excluded points,
    an allowed set (`IN` a numeric list), and whether it must be an integer (a count)."""

    integer: bool = False
    low: Decimal | None = None
    low_strict: bool = False
    high: Decimal | None = None
    high_strict: bool = False
    points: set[Decimal] = field(default_factory=set)
    excluded: set[Decimal] = field(default_factory=set)
    allowed: set[Decimal] | None = None
    said: list[str] = field(default_factory=list)

    def add(self, op: str, value: Decimal) -> None:
        self.said.append(f"{op} {_number_text(value)}")
        match op:
            case "==":
                self.points.add(value)
            case "!=":
                self.excluded.add(value)
            case ">" | ">=":
                if self.low is None or value > self.low or (value == self.low and op == ">"):
                    self.low, self.low_strict = value, op == ">"
            case "<" | "<=":
                if self.high is None or value < self.high or (value == self.high and op == "<"):
                    self.high, self.high_strict = value, op == "<"

    def allow(self, values: set[Decimal], text: str) -> None:
        self.said.append(text)
        self.allowed = values if self.allowed is None else self.allowed & values

    def is_empty(self) -> bool:
        candidates = self.points if self.points else self.allowed
        if self.points and self.allowed is not None:
            candidates = self.points & self.allowed
        if self.points and (len(self.points) > 1 or not candidates):
            return True
        if candidates is not None:
            return not any(self._admits(value) for value in candidates)
        if self.integer:
            return self._integers_empty()
        if self.low is None or self.high is None:
            return False
        return self.low > self.high or (self.low == self.high and (
            self.low_strict or self.high_strict or self.low in self.excluded))

    def _admits(self, value: Decimal) -> bool:
        if value in self.excluded or (self.integer and value != value.to_integral_value()):
            return False
        if self.low is not None and (value < self.low or (value == self.low and self.low_strict)):
            return False
        return self.high is None or value < self.high or (value == self.high
                                                          and not self.high_strict)

    def _integers_empty(self) -> bool:
        low = self._lowest_integer()
        if self.high is None:
            return False
        high = math.ceil(self.high) - 1 if self.high_strict else math.floor(self.high)
        if low > high:
            return True
        # A handful of excluded integers can still empty a short range (0 <= c <= 1, c != 0, 1).
        return high - low < 64 and all(Decimal(n) in self.excluded for n in range(low, high + 1))

    def _lowest_integer(self) -> int | float:
        if self.low is None:
            return -math.inf
        return math.floor(self.low) + 1 if self.low_strict else math.ceil(self.low)


def _numeric(terms: tuple[Term, ...]) -> str | None:
    bounds: dict[Atom, _Bounds] = defaultdict(_Bounds)
    numeric: set[Atom] = set()
    for term in terms:
        match term:
            case Term(Compare(op=op, left=StateRef() | TagRef() as ref, right=NumberLit() as n),
                      True):
                bounds[ref_atom(ref)].add(op, Decimal(n.value))
                if op in _ORDERING:
                    numeric.add(ref_atom(ref))
            case Term(InList(ref=ref, items=items), True) if items.items and all(
                    isinstance(item, NumberLit) for item in items.items):
                listed = ", ".join(_number_text(Decimal(item.value)) for item in items.items)
                bounds[ref_atom(ref)].allow({Decimal(item.value) for item in items.items},
                                         f"IN [{listed}]")
                numeric.add(ref_atom(ref))
    for term in terms:
        match term:
            case Term(Compare(op=op, left=StateRef() | TagRef() as ref, right=NumberLit() as n),
                      False) if ref_atom(ref) in numeric:
                bounds[ref_atom(ref)].add(_COMPLEMENT[op], Decimal(n.value))
    for atom, bound in bounds.items():
        if bound.is_empty():
            return f"no value of {atom.accessor} satisfies {', '.join(bound.said)}"
    return None


def _pinned(terms: tuple[Term, ...]) -> str | None:
    """Evaluate every single-key predicate against a value another predicate pins exactly."""
    pins = [(term, pin) for term in terms if (pin := _pin(term)) is not None]
    if not pins:
        return None
    single = [_single_atom(other.predicate) for other in terms]   # once per term, not per pin
    for term, (atom, value, exact) in pins:
        for other, other_atom in zip(terms, single):
            if other is term or other_atom != atom:
                continue
            if not exact and not _holds_up_to_normalisation(other.predicate):
                continue
            outcome = _evaluate_alone(other.predicate, atom, value)
            if outcome is not None and outcome is not other.positive:
                shown = other.predicate if other.positive else Not(other.predicate)
                return (f"{format_trigger(term.predicate)} and {format_trigger(shown)} "
                        "cannot both hold")
    return None


def _pin(term: Term) -> tuple[Atom, object, bool] | None:
    """(atom, value, exact) when a positive `==` fixes the value of a key."""
    match term:
        case Term(Compare(op="==", left=StateRef() as ref, right=StringLit(value=text)), True):
            return ref_atom(ref), text, True
        case Term(Compare(op="==", left=TagRef() as ref, right=StringLit(value=text)), True):
            return ref_atom(ref), text, False
        case Term(Compare(op="==", left=StateRef() | TagRef() as ref, right=BoolLit(value=flag)),
                  True):
            return ref_atom(ref), flag, True
    return None


def _holds_up_to_normalisation(predicate: Expr) -> bool:
    """Predicates whose outcome on a tag depends only on its normalised text."""
    match predicate:
        case Compare(op="==" | "!=", right=StringLit()) | InList() | Exists():
            return True
    return False


def _evaluate_alone(predicate: Expr, atom: Atom, value: object) -> bool | None:
    context = with_value(EvalContext(state={}, tags={}, events=(), now=_SOME_INSTANT), atom,
                         value)
    try:
        return evaluate(predicate, context)
    except EvaluationError:
        return None


def _counts(terms: tuple[Term, ...]) -> str | None:
    bounds: dict[EventQuery, _Bounds] = {}
    for term in terms:
        match term.predicate:
            case EventQuery() as query:
                bound = bounds.setdefault(query, _counting())
                bound.add(">=" if term.positive else "==", Decimal(int(term.positive)))
            case Count(query=query, op=op, threshold=threshold):
                bound = bounds.setdefault(query, _counting())
                bound.add(op if term.positive else _COMPLEMENT[op], Decimal(threshold.value))
    for query, bound in bounds.items():
        if bound.is_empty():
            name = Atom("event", query.event.name, query.event.project).name
            return (f"no number of {name} events within {query.window.raw} satisfies "
                    f"{', '.join(bound.said)}")
    return None


# ---- small helpers -------------------------------------------------------------------------

def _counting() -> _Bounds:
    """Bounds of an event count: an integer, at least 0."""
    return _Bounds(integer=True, low=Decimal(0))


def _atoms_read(predicate: Expr) -> set[Atom]:
    return {ref_atom(ref) for ref in refs_of(predicate)}


def _single_atom(predicate: Expr) -> Atom | None:
    atoms = _atoms_read(predicate)
    return next(iter(atoms)) if len(atoms) == 1 else None


def _number_text(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else str(value)

