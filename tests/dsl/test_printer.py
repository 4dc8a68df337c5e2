"""The canonical printer: spelling, minimal parentheses, and a parse that gives the AST back."""

from __future__ import annotations

from decimal import Decimal

import pytest

from topo.audit.dsl import format_trigger, parse_trigger
from topo.audit.dsl.ast import (And, Arith, Compare, Duration, EventQuery, EventRef, InList,
                                ListLit, Not, NumberLit, Or, StateRef, StringLit, Truthy,
                                WhereFilter)


def fmt(text: str) -> str:
    result = parse_trigger(text)
    assert result.ok, result.diagnostics
    return format_trigger(result.ast)


@pytest.mark.parametrize("text, canonical", [
    ("state.a.b==1   AND(tag.k=='x' OR tag.k=='y')",
     "state.a.b == 1 AND (tag.k == 'x' OR tag.k == 'y')"),
    ("(state.a.b AND state.c.d) OR state.e.f", "(state.a.b AND state.c.d) OR state.e.f"),
    ("state.a.b AND state.c.d OR state.e.f", "(state.a.b AND state.c.d) OR state.e.f"),
    ("state.a.b OR state.c.d AND state.e.f", "state.a.b OR (state.c.d AND state.e.f)"),
    ("((state.a.b OR state.c.d)) OR state.e.f", "state.a.b OR state.c.d OR state.e.f"),
    ("state.a.b OR (state.c.d OR state.e.f)", "state.a.b OR (state.c.d OR state.e.f)"),
    ("state.a.b AND (state.c.d AND state.e.f)", "state.a.b AND (state.c.d AND state.e.f)"),
    ("(state.a.b AND state.c.d) AND state.e.f", "state.a.b AND state.c.d AND state.e.f"),
    ("NOT (state.a.b OR state.c.d)", "NOT (state.a.b OR state.c.d)"),
    ("NOT (state.a.b == 1)", "NOT state.a.b == 1"),
    ("NOT(NOT(state.a.b))", "NOT NOT state.a.b"),
    ("(NOT state.a.b) AND state.c.d", "NOT state.a.b AND state.c.d"),
    ("(state.a.b + 1) * 2 > 3", "(state.a.b + 1) * 2 > 3"),
    ("state.a.b + (1 * 2) > 3", "state.a.b + 1 * 2 > 3"),
    ("(state.a.b - 1) - 2 > 3", "state.a.b - 1 - 2 > 3"),
    ("state.a.b - (1 - 2) > 3", "state.a.b - (1 - 2) > 3"),
    ("state.a.b / (2 * 3) > 3", "state.a.b / (2 * 3) > 3"),
    ("state.a.b-1>-1", "state.a.b - 1 > -1"),
    ("state.a.b - -1 > 0", "state.a.b - -1 > 0"),
    ("state.a.b > 1.50", "state.a.b > 1.50"),
    ("state.a.b IN ['x','y' ,  3, true]", "state.a.b IN ['x', 'y', 3, true]"),
    (r"state.a.b == 'it\'s'", r"state.a.b == 'it\'s'"),
    (r"state.a.b MATCHES '^\d+\\$'", r"state.a.b MATCHES '^\d+\\$'"),
    ("COUNT(event.a.b.c IN 'P1D')>=2", "COUNT(event.a.b.c IN 'P1D') >= 2"),
    ("COUNT event.a.b.c IN 'P1D'>=2", "COUNT event.a.b.c IN 'P1D' >= 2"),
    ("event.p.a.b.c\n  WHERE x == '{{c.d}}'  AND y==2\n  IN 'PT1.5S'",
     "event.p.a.b.c WHERE x == '{{c.d}}' AND y == 2 IN 'PT1.5S'"),
    ("NOT event.a.b.c IN 'P7D' AND state.a.b EXISTS",
     "NOT event.a.b.c IN 'P7D' AND state.a.b EXISTS"),
    ("(state.a.b) EXISTS", "state.a.b EXISTS"),
    ("state.a.b ENDS_WITH '@x.com'", "state.a.b ENDS_WITH '@x.com'"),
])
def test_canonical_form(text: str, canonical: str) -> None:
    assert fmt(text) == canonical
    assert fmt(canonical) == canonical


def test_multi_line_becomes_one_line() -> None:
    assert "\n" not in fmt("state.a.b EXISTS\nAND NOT event.a.b.c\n  WHERE k == 'v'\n  IN 'P7D'")


A, B, C = (Truthy(StateRef(k)) for k in ("a.b", "c.d", "e.f"))
WINDOW = Duration("P1D", Decimal(86400))


@pytest.mark.parametrize("tree, text", [
    (Or(A, Or(B, C)), "state.a.b OR (state.c.d OR state.e.f)"),
    (And(Or(A, B), C), "(state.a.b OR state.c.d) AND state.e.f"),
    (Not(And(A, B)), "NOT (state.a.b AND state.c.d)"),
    (Not(Not(A)), "NOT NOT state.a.b"),
    (Compare(">", Arith("-", StateRef("a.b"), Arith("+", NumberLit(1), NumberLit(2))),
             NumberLit(Decimal("1E+2"))), "state.a.b - (1 + 2) > 100"),
    (Compare("==", StateRef("a.b"), NumberLit(Decimal("-0.5"))), "state.a.b == -0.5"),
    (Compare("==", StateRef("a.b"), NumberLit(7, raw="not a number")), "state.a.b == 7"),
    (InList(StateRef("a.b"), ListLit(())), "state.a.b IN []"),
    (Compare("==", StateRef("a.b"), StringLit("'")), r"state.a.b == '\''"),
    (EventQuery(EventRef("s", "v", "o"), (WhereFilter("k", StringLit("{{a.b}}")),), WINDOW),
     "event.s.v.o WHERE k == '{{a.b}}' IN 'P1D'"),
])
def test_hand_built_trees_print_and_parse_back(tree: object, text: str) -> None:
    assert format_trigger(tree) == text
    assert parse_trigger(text).ast == tree


def test_not_an_expression_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        format_trigger(StateRef("a.b"))  # an operand, not a condition
