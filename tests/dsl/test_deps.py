"""Dependencies: what a trigger reads, with polarity, COUNT, WHERE templates and EXISTS guards."""

from __future__ import annotations

from decimal import Decimal

import pytest

from topo.audit.dsl import dependencies, guarded_keys, parse_trigger, templates
from topo.audit.dsl.ast import TextSpan


def ast(text: str):
    result = parse_trigger(text)
    assert result.ok, result.diagnostics
    return result.ast


def deps(text: str):
    return dependencies(ast(text))


def test_reachability_review_example() -> None:
    found = deps("state.customer.tier == 'enterprise'\nAND state.customer.id EXISTS\n"
                 "AND tag.intent == 'refund_request'\nAND NOT event.customer.received.refund\n"
                 "  WHERE customer_id == '{{customer.id}}'\n  IN 'P30D'")
    assert [(d.kind, d.key, d.polarity) for d in found] == [
        ("state", "customer.tier", "positive"), ("state", "customer.id", "positive"),
        ("tag", "intent", "positive"), ("event", "customer.received.refund", "negative")]
    event = found[-1]
    assert event.where_attrs == ("customer_id",) and event.templates == ("customer.id",)
    assert event.window is not None and event.window.raw == "P30D"
    assert event.window.seconds == Decimal(30 * 86400)
    assert [d.guarded for d in found] == [False, True, False, False]
    assert event.holds_when_absent is True


@pytest.mark.parametrize("text, polarities", [
    ("NOT state.a.b", ["negative"]),
    ("NOT NOT state.a.b", ["positive"]),
    ("NOT (state.a.b AND NOT tag.k)", ["negative", "positive"]),
    ("state.a.b OR NOT (tag.k == 'x' OR state.c.d > state.e.f)",
     ["positive", "negative", "negative", "negative"]),
    ("NOT COUNT event.a.b.c IN 'P1D' > 2", ["negative"]),
])
def test_polarity_is_the_parity_of_nots(text: str, polarities: list[str]) -> None:
    assert [d.polarity for d in deps(text)] == polarities


def test_count_and_project() -> None:
    counted, other = deps("COUNT(event.user.failed.login WHERE ip == '1.2.3.4' IN 'PT15M') >= 5 "
                          "AND event.billing.customer.paid.invoice IN 'P1D'")
    assert (counted.under_count, counted.key, counted.project) == (True, "user.failed.login", None)
    assert counted.where_attrs == ("ip",) and counted.templates == ()
    assert (other.under_count, other.key, other.project) == (False, "customer.paid.invoice",
                                                              "billing")
    assert other.accessor == "event.billing.customer.paid.invoice"


@pytest.mark.parametrize("text, holds", [
    ("COUNT event.a.b.c IN 'P1D' == 0", True),
    ("COUNT event.a.b.c IN 'P1D' < 3", True),
    ("COUNT event.a.b.c IN 'P1D' >= 1", False),
    ("NOT COUNT event.a.b.c IN 'P1D' >= 1", True),
    ("NOT COUNT event.a.b.c IN 'P1D' == 0", False),
    ("event.a.b.c IN 'P1D'", False),
    ("NOT event.a.b.c IN 'P1D'", True),
    ("NOT state.a.b", True),
    ("state.a.b != 1", False),
])
def test_holds_when_absent(text: str, holds: bool) -> None:
    [dependency] = deps(text)
    assert dependency.holds_when_absent is holds


def test_every_accessor_of_arithmetic_and_comparisons_is_listed_in_order() -> None:
    found = deps("state.request.cost + state.budget.spent * 2 <= state.budget.limit")
    assert [d.key for d in found] == ["request.cost", "budget.spent", "budget.limit"]
    assert [d.span for d in found] == [TextSpan(0, 18), TextSpan(21, 39), TextSpan(47, 65)]


def test_templates_keep_order_dedupe_and_normalise_legacy() -> None:
    [event] = deps("event.a.b.c WHERE x == '{{c.id}}' AND y == 'p-{{state.d.e}}-{{c.id}}' "
                   "AND z == 3 IN 'P1D'")
    assert event.where_attrs == ("x", "y", "z")
    assert event.templates == ("c.id", "d.e")


@pytest.mark.parametrize("text, keys", [
    ("state.a.b EXISTS", {"state.a.b"}),
    ("state.a.b EXISTS AND tag.k EXISTS AND state.c.d > 1", {"state.a.b", "tag.k"}),
    ("state.a.b EXISTS OR tag.k EXISTS", set()),
    ("(state.a.b EXISTS AND tag.k EXISTS) OR (state.a.b EXISTS AND state.c.d)", {"state.a.b"}),
    ("NOT state.a.b EXISTS", set()),
    ("NOT NOT state.a.b EXISTS", set()),
    ("NOT (state.a.b EXISTS AND tag.k)", set()),
    ("state.a.b == 1", set()),
    ("state.a.b AND (state.c.d EXISTS OR state.c.d EXISTS)", {"state.c.d"}),
])
def test_guarded_keys(text: str, keys: set[str]) -> None:
    assert guarded_keys(ast(text)) == keys


def test_guarded_marks_every_occurrence_of_a_guarded_accessor() -> None:
    found = deps("state.a.b EXISTS AND state.a.b > 1 AND state.c.d > 1")
    assert [(d.key, d.guarded) for d in found] == [("a.b", True), ("a.b", True), ("c.d", False)]


def test_templates_function() -> None:
    # The EXISTS guard holds only in the first OR branch, so nothing is guarded overall.
    found = templates(ast(
        "state.customer.id EXISTS AND NOT event.p.customer.got.refund "
        "WHERE id == '{{customer.id}}' AND o == '{{state.order.id}}' IN 'P30D' "
        "OR COUNT event.a.b.c WHERE k == '{{x.y}}' IN 'P1D' > 1"))
    assert [(t.key, t.text, t.event, t.polarity, t.guarded, t.legacy) for t in found] == [
        ("customer.id", "{{customer.id}}", "p.customer.got.refund", "negative", False, False),
        ("order.id", "{{state.order.id}}", "p.customer.got.refund", "negative", False, True),
        ("x.y", "{{x.y}}", "a.b.c", "positive", False, False),
    ]
    guarded = templates(ast("state.customer.id EXISTS AND event.a.b.c "
                            "WHERE id == '{{customer.id}}' IN 'P1D'"))
    assert [t.guarded for t in guarded] == [True]
    assert guarded[0].span == TextSpan(53, 70)


def test_no_templates_outside_where() -> None:
    assert templates(ast("state.a.b == '{{c.d}}'")) == ()
    assert deps("state.a.b == '{{c.d}}'")[0].templates == ()


def test_order_is_deterministic() -> None:
    text = "tag.z OR state.b.a AND event.x.y.z IN 'P1D' OR state.a.a"
    assert deps(text) == deps(text)
    assert [d.key for d in deps(text)] == ["z", "b.a", "x.y.z", "a.a"]
