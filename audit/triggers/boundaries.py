"""The values worth trying for each atom of a trigger, read off its AST.

Every literal in a comparison is a boundary; every absent atom a trap. For each state key and
tag kind this module lists, in order of preference (the literal itself first, so that shrunk
witnesses show it), the present values that sit on or next to what the trigger tests:

- **numbers**: each literal `c` and its neighbours `c-1`, `c+1`; for a decimal literal also the
  next representable floats on either side; the midpoint between two literals compared with the
  same atom (`x > 2 AND x < 3` needs 2.5). When arithmetic is involved, the sums,
  differences, products and quotients of the comparison's literals and their neighbours too
  (`x * 2 > 100` needs 50). Accessors compared with each other (`a <= b`, `a + b > c`) are
  *coupled*: each gets the other's numbers, and a boundary table re-chooses them together.
- **strings**: the value; upper, lower and title case; surrounding whitespace; a full-width
  form that NFKC folds back to the value; another value; the empty string.
- **IN**: the members, their case, whitespace and full-width variants, and non-members.
- **string operators**: a value that starts/ends with/contains the text, one that has it in the
  wrong place, a case variant, a truncation; for `MATCHES` a minimal string the pattern finds.
- **EXISTS**: a present value (`'x'`) and present-but-falsy ones (`''`, `false`, `0`).
- **the shorthand**: `true`, `false` and the truthiness traps `'unknown' 'false' 'No' 0 -1 ''`.
- **templates** in WHERE: a value for the state key they read (`'c1'`).
- **events**: the queries per event, and for `COUNT` the thresholds `n-1`, `n`, `n+1` (and 0).

Absent is not listed: it is always a separate choice, everywhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Context, Decimal, DecimalException
from typing import Any

from topo.audit.dsl.ast import (And, Arith, BoolLit, Compare, Count, EventQuery, Exists, Expr,
                                InList, Not, NumberLit, Or, StringLit, StrOp, Truthy)
from topo.audit.dsl.context import normalize_text
from topo.audit.dsl.regex_cost import regex_refusal
from topo.audit.triggers.atoms import Atom, atoms_of, ref_atom, refs_of

__all__ = ["Probes", "probes", "merge_probes", "same_value", "TRUTHINESS_TRAPS", "MAX_COUNT"]

TRUTHINESS_TRAPS: tuple[Any, ...] = ("unknown", "false", "No", 0, -1, "", "0", 1)
"""Values whose truthiness people guess wrong (docs: `'unknown'` is true, `'No'` is false)."""

MAX_COUNT = 100
"""The most events of one query a context gets; a `COUNT … >= 1000` is not explored."""

_PRESENT = "x"
_TEMPLATE_VALUE = "c1"
_MAX_STRING = 200
_MAX_COMBINED = 6  # literals in one arithmetic comparison whose pairs are combined


@dataclass(frozen=True, slots=True)
class Probes:
    """What to try for each atom of one or more triggers.

    `values`: per state/tag atom, present values in order of preference. `couplings`: atoms
    compared with each other. `queries`: per event atom, the queries that read it. `counts`:
    per `COUNT` query, the numbers of matching events worth trying. `atoms`: all atoms in
    source order.
    """

    atoms: tuple[Atom, ...]
    values: dict[Atom, tuple[Any, ...]]
    couplings: dict[Atom, tuple[Atom, ...]]
    queries: dict[Atom, tuple[EventQuery, ...]]
    counts: dict[EventQuery, tuple[int, ...]]


def probes(ast: Expr) -> Probes:
    """The probe values of one trigger."""
    values: dict[Atom, list[Any]] = {a: [] for a in atoms_of(ast) if a.kind != "event"}
    couplings: dict[Atom, list[Atom]] = {}
    queries: dict[Atom, list[EventQuery]] = {}
    counts: dict[EventQuery, tuple[int, ...]] = {}
    for node in _predicates(ast):
        _probe(node, values, couplings, queries, counts)
    _add_midpoints(ast, values)
    _share_coupled_numbers(values, couplings)
    return Probes(atoms_of(ast), {a: _dedupe(v) for a, v in values.items()},
                  {a: tuple(dict.fromkeys(c)) for a, c in couplings.items()},
                  {a: tuple(dict.fromkeys(q)) for a, q in queries.items()}, counts)


def merge_probes(*parts: Probes) -> Probes:
    """The union of several triggers' probes (for a before/after comparison), earlier first."""
    atoms = tuple(dict.fromkeys(a for p in parts for a in p.atoms))

    def union(attribute: str) -> dict[Any, tuple[Any, ...]]:
        merged: dict[Any, list[Any]] = {}
        for part in parts:
            for key, items in getattr(part, attribute).items():
                merged.setdefault(key, []).extend(items)
        return {k: _dedupe(v) for k, v in merged.items()}

    counts: dict[EventQuery, tuple[int, ...]] = {}
    for part in parts:
        for query, numbers in part.counts.items():
            counts[query] = tuple(sorted(set(counts.get(query, ())) | set(numbers)))
    return Probes(atoms, union("values"), union("couplings"), union("queries"), counts)


def same_value(a: Any, b: Any) -> bool:
    """Equal and of the same type (`1`, `1.0` and `true` are three different probes)."""
    return type(a) is type(b) and a == b


# ---- walking -------------------------------------------------------------------------------

def _predicates(node: Expr) -> Iterator[Expr]:
    match node:
        case And(left=left, right=right) | Or(left=left, right=right):
            yield from _predicates(left)
            yield from _predicates(right)
        case Not(operand=operand):
            yield from _predicates(operand)
        case _:
            yield node


def _probe(node: Expr, values: dict[Atom, list[Any]], couplings: dict[Atom, list[Atom]],
           queries: dict[Atom, list[EventQuery]], counts: dict[EventQuery, tuple[int, ...]]
           ) -> None:
    match node:
        case Compare(left=left, right=right):
            atoms = [ref_atom(ref) for ref in refs_of(left) + refs_of(right)]
            found = _comparison_values(left, right)
            for atom in atoms:
                values[atom].extend(found)
                couplings.setdefault(atom, []).extend(a for a in atoms if a != atom)
        case InList(ref=ref, items=items):
            values[ref_atom(ref)].extend(_membership_values(items.items))
        case StrOp(op=op, ref=ref, pattern=pattern):
            values[ref_atom(ref)].extend(_string_operation_values(op, pattern.value))
        case Exists(ref=ref):
            values[ref_atom(ref)].extend([_PRESENT, "", False, 0])
        case Truthy(ref=ref):
            values[ref_atom(ref)].extend([True, False, *TRUTHINESS_TRAPS])
        case EventQuery() as query:
            _note_query(query, values, queries)
        case Count(query=query, threshold=threshold):
            _note_query(query, values, queries)
            counts[query] = _count_values(Decimal(threshold.value))


def _note_query(query: EventQuery, values: dict[Atom, list[Any]],
                queries: dict[Atom, list[EventQuery]]) -> None:
    queries.setdefault(Atom("event", query.event.name, query.event.project), []).append(query)
    for where in query.where:
        if isinstance(where.value, StringLit) and "{{" in where.value.value:
            for key in _template_keys(where.value.value):
                values.setdefault(Atom("state", key), []).append(_TEMPLATE_VALUE)


def _add_midpoints(ast: Expr, values: dict[Atom, list[Any]]) -> None:
    """Half-way between consecutive number literals an atom is compared with."""
    literals: dict[Atom, set[Decimal]] = {}
    for node in _predicates(ast):
        if isinstance(node, Compare):
            numbers = {Decimal(lit.value) for lit in _literals(node.left) + _literals(node.right)
                       if isinstance(lit, NumberLit)}
            for ref in refs_of(node):
                literals.setdefault(ref_atom(ref), set()).update(numbers)
    for atom, numbers in literals.items():
        ordered = sorted(numbers)
        values[atom].extend(_json_number((a + b) / 2) for a, b in zip(ordered, ordered[1:]))


def _json_number(number: Decimal) -> int | float:
    return int(number) if number == number.to_integral_value() else float(number)


def _share_coupled_numbers(values: dict[Atom, list[Any]],
                           couplings: dict[Atom, list[Atom]]) -> None:
    """`a <= b`: b gets a's numbers and the other way round, so each can cross the other."""
    own = {atom: [v for v in found if _is_number(v)] for atom, found in values.items()}
    for atom, others in couplings.items():
        for other in others:
            values[atom].extend(own.get(other, []))


# ---- values per construct ------------------------------------------------------------------

def _comparison_values(left: Any, right: Any) -> list[Any]:
    literals = _literals(left) + _literals(right)
    numbers = [Decimal(lit.value) for lit in literals if isinstance(lit, NumberLit)]
    if (isinstance(left, Arith) or isinstance(right, Arith)) and len(numbers) <= _MAX_COMBINED:
        numbers += _combinations(numbers)
    found: list[Any] = [n for number in numbers for n in _numbers_near(number)]
    for literal in literals:
        match literal:
            case StringLit(value=text):
                found += _string_variants(text)
            case BoolLit(value=flag):
                found += [flag, not flag, "true" if flag else "false"]
    return found


def _combinations(numbers: list[Decimal]) -> list[Decimal]:
    """Sums, differences, products and quotients of pairs: where `x + 10 <= 100` or
    `x * 2 > 100` change outcome."""
    context = Context(prec=28)
    found: list[Decimal] = []
    for a in numbers:
        for b in numbers:
            try:
                found += [context.add(a, b), context.subtract(a, b), context.multiply(a, b)]
                if b != 0:
                    found.append(context.divide(a, b))
            except DecimalException:
                continue
    return found


def _numbers_near(number: Decimal) -> list[int | float]:
    """`c`, `c-1`, `c+1`; for a decimal also the next floats either side. JSON numbers only."""
    if number == number.to_integral_value():
        whole = int(number)
        return [whole, whole - 1, whole + 1]
    value = float(number)
    if not math.isfinite(value):
        return []
    near = [value, math.nextafter(value, -math.inf), math.nextafter(value, math.inf),
            float(number - 1), float(number + 1)]
    return [n for n in near if math.isfinite(n)]


def _string_variants(text: str) -> list[str]:
    return [text, text.upper(), text.lower(), text.title(), f" {text} ", _full_width(text),
            _another(text), ""]


def _membership_values(items: Iterable[Any]) -> list[Any]:
    found: list[Any] = []
    members: list[str] = []
    for item in items:
        match item:
            case StringLit(value=text):
                members.append(normalize_text(text))
                found += [text, text.upper(), f" {text} ", _full_width(text)]
            case NumberLit(value=number):
                found += _numbers_near(Decimal(number))
            case BoolLit(value=flag):
                found += [flag, not flag]
    found.append("other" if "other" not in members else "another")
    return found


def _string_operation_values(op: str, text: str) -> list[str]:
    match op:
        case "STARTS_WITH":
            return [text, text + "x", "x" + text, text.swapcase(), text[:-1]]
        case "ENDS_WITH":
            return [text, "x" + text, text + "x", text.swapcase(), text[1:]]
        case "CONTAINS":
            return [text, "x" + text + "x", text.swapcase(), text[:-1]]
    return [*_regex_examples(text), "", "x"]


def _regex_examples(pattern: str) -> list[str]:
    """A minimal string `pattern` finds, when Python's `re` compiles it and Hypothesis can
    produce one (deterministically); none for a pattern too costly to compile."""
    if regex_refusal(pattern) is not None:
        return []
    # Imported here: hypothesis takes a quarter of a second to import, and only a trigger
    # with a regex operator needs it (an audit of code alone never does).
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings, strategies as st
    from hypothesis.errors import HypothesisException
    try:
        strategy = st.from_regex(re.compile(pattern))
        example = find(strategy, lambda s: len(s) <= _MAX_STRING, settings=settings(
            database=None, derandomize=True, max_examples=50, deadline=None,
            phases=(Phase.generate, Phase.shrink), verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck)))
    except (re.error, TypeError, ValueError, HypothesisException):
        return []
    return [example]


def _count_values(threshold: Decimal) -> tuple[int, ...]:
    low, high = math.floor(threshold), math.ceil(threshold)
    near = {0, low - 1, low, high, high + 1}
    return tuple(sorted(n for n in near if 0 <= n <= MAX_COUNT))


# ---- small helpers -------------------------------------------------------------------------

def _literals(operand: Any) -> list[Any]:
    match operand:
        case StringLit() | NumberLit() | BoolLit():
            return [operand]
        case Arith(left=left, right=right):
            return _literals(left) + _literals(right)
    return []


_TEMPLATE = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")


def _template_keys(text: str) -> list[str]:
    return [m.group(1).removeprefix("state.") for m in _TEMPLATE.finditer(text)]


def _full_width(text: str) -> str:
    """The same text in full-width forms (`ＵＳＤ`), which NFKC folds back to `text`."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _another(text: str) -> str:
    return "other" if normalize_text(text) != "other" else "another"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _dedupe(values: Iterable[Any]) -> tuple[Any, ...]:
    kept: list[Any] = []
    for value in values:
        if isinstance(value, str) and len(value) > _MAX_STRING:
            continue
        if not any(same_value(value, old) for old in kept):
            kept.append(value)
    return tuple(kept)
