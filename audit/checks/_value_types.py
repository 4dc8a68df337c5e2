"""Can an atom's literal value satisfy the predicates a trigger puts on it? (ATOM-GAP's
"wrong type", "wrong case" and "outside taxonomy".)

Types are judged with the reference evaluator, not by a table of our own: a value of another
type than the predicate's literal fails only if the evaluator says so, so numeric-looking
strings against numbers (`'45' > 30`, coerced) pass, and `True == 'true'` or `'high' > 3` fail.
A value of the same type that merely differs (`'low' == 'high'`) is a value question, not a
type gap, and is not reported as one; `value_mismatch` reports the two value gaps a reviewer
can act on: a case-only difference, and a validated set none of whose members is accepted.
None reads as absent and fails every positive predicate.
"""

from __future__ import annotations

from datetime import UTC, datetime

from topo.audit import dsl
from topo.audit.dsl.ast import BoolLit, Compare, Expr, InList, NumberLit, StringLit, StrOp
from topo.analyzers.model import Site

__all__ = ["type_mismatch", "value_mismatch"]

_NOW = datetime(2000, 1, 1, tzinfo=UTC)     # value predicates never read the clock


def type_mismatch(kind: str, key: str, predicates: tuple[Expr, ...],
                  suppliers: list[Site]) -> tuple[str, str] | None:
    """(how the suppliers are built, the predicate text) when each supplier's value fails a
    predicate that must hold, written with a literal of another type, or is None (absent)."""
    described: set[str] = set()
    failed: set[str] = set()
    for atom in suppliers:
        candidates = _candidates(atom)
        failures = [_typed_failure(kind, key, predicates, value) for value in candidates]
        if not candidates or None in failures:
            return None
        described.add("`None`" if candidates == [None] else
                      "a bool" if len(candidates) > 1 else f"`{candidates[0]!r}`")
        failed.update(dsl.format_trigger(f) for f in failures if f is not None)
    return " and ".join(sorted(described)), sorted(failed)[0]


def _candidates(atom: Site) -> list[object]:
    """The values an atom can hold, when its literal (or at least its bool type) is known."""
    if atom.attr("value_literal") is not False and atom.attr("value_type") not in (None,
                                                                                  "dynamic"):
        return [atom.attr("value")]
    if atom.attr("value_type") == "bool":
        return [True, False]
    return [None] if atom.attr("value_type") == "none" else []


def _typed_failure(kind: str, key: str, predicates: tuple[Expr, ...],
                   value: object) -> Expr | None:
    """The first predicate that must hold, is written with a literal of another type than
    `value` (any predicate, for None), and fails on `value`."""
    for predicate in predicates:
        categories = _literal_categories(predicate)
        typed = value is None or (categories and _category(value) not in categories)
        if typed and _fails(kind, key, value, predicate):
            return predicate
    return None


def _fails(kind: str, key: str, value: object, predicate: Expr) -> bool:
    state = {key: value} if kind == "state" else {}
    tags = {key: value} if kind == "tag" else {}
    try:
        return not dsl.evaluate(predicate, dsl.EvalContext(state, tags, (), _NOW))
    except dsl.EvaluationError:
        return True


def _category(value: object) -> str:
    match value:
        case bool() | BoolLit():
            return "bool"
        case int() | float() | NumberLit():
            return "number"
        case str() | StringLit():
            return "string"
    return "none"


def _literal_categories(predicate: Expr) -> set[str]:
    match predicate:
        case Compare(_, left, right):
            literals = [o for o in (left, right) if isinstance(o, (StringLit, NumberLit, BoolLit))]
            return {_category(literals[0])} if len(literals) == 1 else set()
        case InList(_, items):
            return {_category(item) for item in items.items}
        case StrOp():
            return {"string"}
    return set()


def value_mismatch(kind: str, key: str, predicates: tuple[Expr, ...],
                   supplied: list[tuple[tuple[str, ...], str, bool]]) -> \
        tuple[str, str, str] | None:
    """(gap kind, how the suppliers are built, the failing predicate) when no value the
    suppliers can hold satisfies a predicate that must hold, and the reason is one a reviewer
    can act on: `wrong case` (some value matches a predicate's literal but for case: `'gold'`
    against `== 'Gold'`) or `outside taxonomy` (every value comes from the fixed set the code
    validates against, and none is accepted). `supplied` holds, per supplier, its possible
    string values, their description and whether they are a validated set; plain other
    literals alone (`'low'` for `== 'high'`) stay a value question, as above."""
    failed: list[Expr] = []
    for values, _, _ in supplied:
        if not values:
            return None
        for value in values:
            predicate = next((p for p in predicates if _fails(kind, key, value, p)), None)
            if predicate is None:
                return None
            failed.append(predicate)
    values = [v for vs, _, _ in supplied for v in vs]
    if any(_differs_in_case(v, p) for v, p in zip(values, failed)):
        gap = "wrong case"
    elif all(validated for _, _, validated in supplied):
        gap = "outside taxonomy"
    else:
        return None
    described = " and ".join(sorted({text for _, text, _ in supplied}))
    return gap, described, sorted(dsl.format_trigger(f) for f in failed)[0]


def _differs_in_case(value: str, predicate: Expr) -> bool:
    folded = value.casefold()
    return any(isinstance(item, StringLit) and item.value != value and
               item.value.casefold() == folded for item in _string_literals(predicate))


def _string_literals(predicate: Expr) -> list[object]:
    match predicate:
        case Compare(_, left, right):
            return [left, right]
        case InList(_, items):
            return list(items.items)
    return []
