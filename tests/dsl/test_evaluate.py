"""The evaluator, one rule per test, each with the context in which the rule decides the result.

Triggers are built as ASTs with the small helpers below (the parser is written concurrently);
`show()` in the test ids keeps them readable.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from audit.dsl import EvalContext, EvaluationError, Event, evaluate
from audit.dsl.ast import (And, Arith, BoolLit, Compare, Count, Duration, EventQuery, EventRef,
                           Exists, InList, ListLit, Not, NumberLit, Or, StateRef, StringLit,
                           StrOp, TagRef, TextSpan, Truthy, WhereFilter)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


# ---- builders ------------------------------------------------------------------------------

def lit(value):
    match value:
        case bool():
            return BoolLit(value)
        case int() | Decimal():
            return NumberLit(value)
        case float():
            return NumberLit(Decimal(repr(value)))
        case str():
            return StringLit(value)
    return value  # already a node


def ref(name: str):
    return TagRef(name[4:]) if name.startswith("tag.") else StateRef(name.removeprefix("state."))


def cmp(left, op, right):
    return Compare(op, ref(left) if isinstance(left, str) else left, lit(right) if not
                   (isinstance(right, str) and right.startswith(("state.", "tag."))) else ref(right))


def duration(raw: str, seconds) -> Duration:
    return Duration(raw, Decimal(seconds))


def query(name: str, window=("PT1H", 3600), where=()):
    parts = name.removeprefix("event.").split(".")
    project = parts[0] if len(parts) == 4 else None
    s, v, o = parts[-3:]
    filters = tuple(WhereFilter(attr, lit(value)) for attr, value in where)
    return EventQuery(EventRef(s, v, o, project), filters, duration(*window))


def count(q, op, n):
    return Count(q, op, NumberLit(n))


def ctx(state=None, tags=None, events=(), project=None, now=NOW) -> EvalContext:
    return EvalContext(state=state or {}, tags=tags or {}, events=tuple(events), now=now,
                       project=project)


def event(name, ago=timedelta(minutes=1), project=None, **attributes) -> Event:
    return Event(name, NOW - ago, attributes, project)


EMPTY = ctx()


# ---- the plugin's empty-context table (memrail-facts §2.2) ---------------------------------

@pytest.mark.parametrize(("trigger", "expected"), [
    (cmp("state.user.verified", "==", True), False),
    (Not(Truthy(ref("user.verified"))), True),
    (And(Exists(ref("user.verified")), Not(Truthy(ref("user.verified")))), False),
    (count(query("user.failed.login", ("PT0.5S", "0.5")), "==", 0), True),
], ids=["verified==true", "NOT verified", "EXISTS AND NOT", "COUNT==0"])
def test_empty_context_table(trigger, expected):
    assert evaluate(trigger, EMPTY) is expected


# ---- absent atoms --------------------------------------------------------------------------

POSITIVE_ON_ABSENT = {
    "==": cmp("state.user.tier", "==", "gold"),
    "!=": cmp("state.user.tier", "!=", "gold"),
    "<": cmp("state.order.total", "<", 10),
    ">=": cmp("state.order.total", ">=", 10),
    "IN": InList(ref("user.role"), ListLit((StringLit("admin"), NumberLit(5)))),
    "STARTS_WITH": StrOp("STARTS_WITH", ref("case.ref"), StringLit("")),
    "ENDS_WITH": StrOp("ENDS_WITH", ref("case.ref"), StringLit("")),
    "CONTAINS": StrOp("CONTAINS", ref("case.ref"), StringLit("")),
    "MATCHES": StrOp("MATCHES", ref("case.ref"), StringLit(".*")),
    "truthy": Truthy(ref("account.verified")),
    "EXISTS": Exists(ref("account.verified")),
    "tag ==": cmp("tag.intent", "==", "refund"),
    "tag !=": cmp("tag.intent", "!=", "refund"),
    "accessor == accessor": cmp("state.a.b", "==", "state.c.d"),
}


@pytest.mark.parametrize("predicate", POSITIVE_ON_ABSENT.values(), ids=POSITIVE_ON_ABSENT.keys())
@pytest.mark.parametrize("context", [EMPTY, ctx({"user.tier": None, "order.total": None,
                                                  "user.role": None, "case.ref": None,
                                                  "account.verified": None, "a.b": None},
                                                 {"intent": None})], ids=["missing", "null"])
def test_positive_predicate_on_absent_atom_is_false_and_not_flips_it(predicate, context):
    assert evaluate(predicate, context) is False
    assert evaluate(Not(predicate), context) is True


def test_empty_string_patterns_do_match_a_present_string():
    # The counterpart of the absent case above: the same predicates are true once present.
    context = ctx({"case.ref": "EU-1"})
    for op in ("STARTS_WITH", "ENDS_WITH", "CONTAINS"):
        assert evaluate(StrOp(op, ref("case.ref"), StringLit("")), context) is True


def test_not_banned_is_true_when_banned_is_missing_but_guarded_form_is_false():
    assert evaluate(Not(Truthy(ref("user.banned"))), EMPTY) is True
    guarded = And(Exists(ref("user.banned")), cmp("state.user.banned", "==", False))
    assert evaluate(guarded, EMPTY) is False
    assert evaluate(guarded, ctx({"user.banned": False})) is True


@pytest.mark.parametrize(("value", "exists"), [(None, False), ("", True), (0, True),
                                                (False, True), ([], True)])
def test_exists_means_present_and_non_null(value, exists):
    assert evaluate(Exists(ref("user.email")), ctx({"user.email": value})) is exists


def test_or_matches_through_another_branch_when_one_atom_is_missing():
    trigger = Or(cmp("state.user.tier", "==", "gold"), cmp("tag.intent", "==", "refund"))
    assert evaluate(trigger, ctx(tags={"intent": "refund"})) is True


# ---- truthiness ----------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    (1, True), (-1, True), (0, False), (0.0, False), (-0.5, True), (Decimal("0.00"), False),
    ("", False), ("false", False), ("FALSE", False), ("No", False), ("0", False),
    ("unknown", True), ("yes", True), ("true", True), (" no ", True), ("0.0", True),
    (True, True), (False, False), (None, False),
    ([], False), ([0], True), ({}, False), ({"a": 1}, True),
])
def test_truthiness_of_the_shorthand(value, expected):
    assert evaluate(Truthy(ref("account.verified")), ctx({"account.verified": value})) is expected


def test_tag_truthiness_uses_the_same_rule():
    assert evaluate(Truthy(ref("tag.urgent")), ctx(tags={"urgent": "No"})) is False
    assert evaluate(Truthy(ref("tag.urgent")), ctx(tags={"urgent": "unknown"})) is True


# ---- equality and normalisation ------------------------------------------------------------

def test_state_string_equality_is_case_sensitive():
    assert evaluate(cmp("state.user.role", "==", "admin"), ctx({"user.role": "admin"})) is True
    assert evaluate(cmp("state.user.role", "==", "admin"), ctx({"user.role": "ADMIN"})) is False
    assert evaluate(cmp("state.user.role", "!=", "admin"), ctx({"user.role": "ADMIN"})) is True


@pytest.mark.parametrize("value", ["refund", "REFUND", "  Refund ", "ｒｅｆｕｎｄ"])
def test_tag_equality_normalises_the_value(value):
    context = ctx(tags={"intent": value})
    assert evaluate(cmp("tag.intent", "==", "refund"), context) is True
    assert evaluate(cmp("tag.intent", "!=", "Refund"), context) is False
    assert evaluate(cmp("tag.intent", "==", "refunds"), context) is False


@pytest.mark.parametrize("kind", ["Intent", " intent ", "INTENT"])
def test_tag_kind_lookup_is_normalised(kind):
    assert evaluate(cmp("tag.intent", "==", "refund"), ctx(tags={kind: "refund"})) is True


def test_tag_kind_exact_key_wins_over_a_normalised_one():
    context = ctx(tags={"INTENT": "upgrade", "intent": "refund"})
    assert evaluate(cmp("tag.intent", "==", "refund"), context) is True


def test_tag_compared_with_state_normalises_both_strings():
    context = ctx({"user.intent": "REFUND"}, {"intent": "refund"})
    assert evaluate(cmp("tag.intent", "==", "state.user.intent"), context) is True
    assert evaluate(cmp("state.user.intent", "==", "state.user.intent"), context) is True


def test_membership_normalises_strings_but_equality_does_not():
    context = ctx({"user.role": "ADMIN"})
    assert evaluate(InList(ref("user.role"), ListLit((StringLit("admin"),))), context) is True
    assert evaluate(cmp("state.user.role", "==", "admin"), context) is False


@pytest.mark.parametrize(("value", "items", "expected"), [
    ("5", (NumberLit(5),), False),
    (5, (StringLit("5"),), False),
    (5, (NumberLit(5),), True),
    (5.0, (NumberLit(5),), True),
    (Decimal("2.50"), (NumberLit(Decimal("2.5")),), True),
    (True, (BoolLit(True),), True),
    (1, (BoolLit(True),), False),
    (True, (NumberLit(1),), False),
    (" Ａdmin ", (StringLit("owner"), StringLit("admin")), True),
    (["admin"], (StringLit("admin"),), False),
    ("gold", (), False),
])
def test_membership(value, items, expected):
    assert evaluate(InList(ref("user.role"), ListLit(items)), ctx({"user.role": value})) is expected


def test_tag_membership_normalises():
    trigger = InList(ref("tag.intent"), ListLit((StringLit("refund_request"),)))
    assert evaluate(trigger, ctx(tags={"intent": "Refund_Request "})) is True


# ---- comparisons and coercion --------------------------------------------------------------

@pytest.mark.parametrize(("value", "op", "right", "expected"), [
    ("10", ">", 5, True),          # numeric-looking strings are coerced by comparisons
    ("10", "<", 5, False),
    (" 10 ", "==", 10, True),
    ("1e3", ">=", 1000, True),
    ("10", ">", "9", True),        # both numeric-looking: numeric order, not lexicographic
    ("abc", ">", 5, False),        # not numeric: incomparable, false either way
    ("abc", "<", 5, False),
    ("abc", "!=", 5, True),        # both present and different
    ("NaN", "==", 0, False),
    ("1_000", ">", 5, False),
    ("007", "==", "7", False),     # two strings are compared as strings for equality
    ("b", ">", "a", True),         # non-numeric strings order lexicographically
    (10, "==", Decimal("10.0"), True),
    (0.1, "==", Decimal("0.1"), True),   # floats read through their shortest repr
    (1000, ">=", 1000, True),
    (999, ">=", 1000, False),
    (1, "==", True, False),        # a bool is not a number
    (1, "!=", True, True),
    (True, "==", True, True),
    (False, "==", False, True),
    (False, "!=", True, True),
    ("true", "==", True, False),   # no string-to-bool coercion
    (True, ">", False, False),     # bools have no order
    ([1], "==", 1, False),
])
def test_comparison(value, op, right, expected):
    assert evaluate(cmp("state.a.b", op, right), ctx({"a.b": value})) is expected


def test_accessor_vs_accessor():
    trigger = cmp("state.refund.amount", ">", "state.customer.refund_limit")
    assert evaluate(trigger, ctx({"refund.amount": 600, "customer.refund_limit": 500})) is True
    assert evaluate(trigger, ctx({"refund.amount": 400, "customer.refund_limit": 500})) is False
    assert evaluate(trigger, ctx({"refund.amount": 600})) is False
    assert evaluate(trigger, ctx({"customer.refund_limit": 500})) is False
    unequal = cmp("state.refund.amount", "!=", "state.customer.refund_limit")
    assert evaluate(unequal, ctx({"refund.amount": 600})) is False
    assert evaluate(unequal, ctx({"refund.amount": 600, "customer.refund_limit": 500})) is True


# ---- arithmetic ----------------------------------------------------------------------------

BUDGET = Compare("<=", Arith("+", ref("request.cost"), ref("budget.spent")), ref("budget.limit"))


def test_arithmetic_comparison():
    assert evaluate(BUDGET, ctx({"request.cost": 5, "budget.spent": 90,
                                 "budget.limit": 95})) is True
    assert evaluate(BUDGET, ctx({"request.cost": 6, "budget.spent": 90,
                                 "budget.limit": 95})) is False


def test_arithmetic_is_exact():
    trigger = Compare("==", Arith("+", ref("a.x"), ref("a.y")), NumberLit(Decimal("0.3")))
    assert evaluate(trigger, ctx({"a.x": 0.1, "a.y": 0.2})) is True
    third = Compare("==", Arith("*", Arith("/", NumberLit(1), NumberLit(3)), NumberLit(3)),
                    NumberLit(1))
    assert evaluate(third, EMPTY) is False  # 0.999… at 60 digits; exact where representable


def test_missing_operand_makes_the_comparison_false_and_not_true():
    context = ctx({"request.cost": 5, "budget.limit": 95})
    assert evaluate(BUDGET, context) is False
    assert evaluate(Not(BUDGET), context) is True
    ne = Compare("!=", Arith("+", ref("request.cost"), ref("budget.spent")), NumberLit(0))
    assert evaluate(ne, context) is False


@pytest.mark.parametrize("divisor", [0, "0", 0.0])
def test_division_by_zero_makes_the_comparison_false(divisor):
    trigger = Compare(">", Arith("/", ref("a.x"), ref("a.y")), NumberLit(0))
    context = ctx({"a.x": 1, "a.y": divisor})
    assert evaluate(trigger, context) is False
    assert evaluate(Not(trigger), context) is True


@pytest.mark.parametrize("bad", ["abc", True, [1], {"a": 1}])
def test_non_numeric_arithmetic_is_an_evaluation_error(bad):
    bad_operand = StateRef("a.y", TextSpan(7, 12))
    trigger = Compare(">", Arith("+", ref("a.x"), bad_operand), NumberLit(0))
    with pytest.raises(EvaluationError, match="non-numeric") as caught:
        evaluate(trigger, ctx({"a.x": 1, "a.y": bad}))
    assert caught.value.span == TextSpan(7, 12)


def test_numeric_strings_are_coerced_in_arithmetic():
    trigger = Compare("==", Arith("*", ref("a.x"), NumberLit(2)), NumberLit(21))
    assert evaluate(trigger, ctx({"a.x": "10.5"})) is True


def test_string_literal_operand_is_an_error():
    trigger = Compare("==", Arith("+", ref("a.x"), StringLit("x")), NumberLit(1))
    with pytest.raises(EvaluationError):
        evaluate(trigger, ctx({"a.x": 1}))


def test_absent_operand_wins_over_a_non_numeric_one():
    # Per operator, absence is checked first: the comparison is false, not an error.
    trigger = Compare(">", Arith("+", ref("a.x"), ref("a.y")), NumberLit(0))
    assert evaluate(trigger, ctx({"a.x": "abc"})) is False
    # Anywhere in the expression: the absent accessor is checked before any operand's type.
    nested = Compare(">", Arith("+", Arith("*", ref("a.x"), NumberLit(2)), ref("a.y")),
                     NumberLit(0))
    assert evaluate(nested, ctx({"a.x": "abc"})) is False
    with pytest.raises(EvaluationError):
        evaluate(nested, ctx({"a.x": "abc", "a.y": 1}))
    # And across the comparison: an absent right side beats an erroring left side.
    across = Compare("==", Arith("+", NumberLit(1), StringLit("gold")), ref("user.verified"))
    assert evaluate(across, EMPTY) is False
    with pytest.raises(EvaluationError):
        evaluate(across, ctx({"user.verified": 1}))


def test_and_or_short_circuit_past_an_erroring_branch():
    error = Compare(">", Arith("+", ref("a.x"), NumberLit(1)), NumberLit(0))
    context = ctx({"a.x": "abc", "a.ok": True})
    assert evaluate(Or(Truthy(ref("a.ok")), error), context) is True
    assert evaluate(And(Not(Truthy(ref("a.ok"))), error), context) is False
    with pytest.raises(EvaluationError):
        evaluate(And(Truthy(ref("a.ok")), error), context)


# ---- string operators ----------------------------------------------------------------------

@pytest.mark.parametrize(("op", "pattern", "value", "expected"), [
    ("STARTS_WITH", "EU-", "EU-123", True),
    ("STARTS_WITH", "EU-", "eu-123", False),
    ("ENDS_WITH", "@company.com", "a@company.com", True),
    ("ENDS_WITH", "@company.com", "a@Company.com", False),
    ("CONTAINS", "URGENT", "re: URGENT fix", True),
    ("CONTAINS", "URGENT", "re: urgent fix", False),
    ("MATCHES", r"^[A-Z]{3}-\d{4}$", "ABC-1234", True),
    ("MATCHES", r"^[A-Z]{3}-\d{4}$", "abc-1234", False),
    ("MATCHES", r"^[A-Z]{3}-\d{4}$", "xABC-1234", False),
    ("MATCHES", r"\d{4}", "ABC-1234", True),       # search, not fullmatch
    ("STARTS_WITH", "1", 123, False),               # string operators need a string
    ("MATCHES", r"\d", 123, False),
    ("CONTAINS", "a", ["a"], False),
])
def test_string_operators_are_case_sensitive(op, pattern, value, expected):
    trigger = StrOp(op, ref("doc.code"), StringLit(pattern))
    assert evaluate(trigger, ctx({"doc.code": value})) is expected


def test_string_operators_on_tags_are_not_normalised():
    trigger = StrOp("STARTS_WITH", ref("tag.intent"), StringLit("refund"))
    assert evaluate(trigger, ctx(tags={"intent": "Refund_request"})) is False
    assert evaluate(trigger, ctx(tags={"intent": "refund_request"})) is True


@pytest.mark.parametrize(("pattern", "subject"), [
    ("(a+)+$", "a" * 40 + "b"),
    ("(a|aa)+$", "a" * 40 + "b"),
    ("^(a|a?)+$", "a" * 40 + "b"),
])
def test_pathological_matches_is_bounded(pattern, subject):
    trigger = StrOp("MATCHES", ref("doc.code"), StringLit(pattern))
    try:
        result = evaluate(trigger, ctx({"doc.code": subject}), match_timeout=0.05)
    except EvaluationError as error:
        assert "did not finish" in error.message
    else:
        assert result is False


def test_matches_timeout_is_an_evaluation_error_naming_the_pattern():
    # `(a|aa)+$` defeats the regex module's own backtracking safeguards.
    trigger = StrOp("MATCHES", ref("doc.code"), StringLit("(a|aa)+$"))
    with pytest.raises(EvaluationError, match=r"\(a\|aa\)\+\$.*did not finish"):
        evaluate(trigger, ctx({"doc.code": "a" * 40 + "b"}), match_timeout=0.05)


def test_invalid_matches_pattern_is_an_evaluation_error():
    trigger = StrOp("MATCHES", ref("doc.code"), StringLit("([A-Z"))
    with pytest.raises(EvaluationError, match="not a valid regular expression"):
        evaluate(trigger, ctx({"doc.code": "ABC"}))


def test_matches_subject_length_is_capped():
    from audit.dsl.evaluate import MAX_MATCH_SUBJECT
    trigger = StrOp("MATCHES", ref("doc.code"), StringLit("x"))
    assert evaluate(trigger, ctx({"doc.code": "a" * MAX_MATCH_SUBJECT})) is False
    with pytest.raises(EvaluationError, match="limit"):
        evaluate(trigger, ctx({"doc.code": "a" * (MAX_MATCH_SUBJECT + 1)}))


# ---- events --------------------------------------------------------------------------------

def test_event_query_matches_by_name_within_the_window():
    q = query("agent.sent.email", ("PT24H", 86400))
    assert evaluate(q, ctx(events=[event("agent.sent.email", timedelta(hours=2))])) is True
    assert evaluate(q, ctx(events=[event("agent.sent.sms", timedelta(hours=2))])) is False
    assert evaluate(q, ctx(events=[event("agent.sent.email", timedelta(hours=25))])) is False
    assert evaluate(Not(q), EMPTY) is True


@pytest.mark.parametrize(("ago", "expected"), [
    (timedelta(seconds=1.5), True),                      # exactly on the boundary: inclusive
    (timedelta(seconds=1, microseconds=499_999), True),
    (timedelta(seconds=1, microseconds=500_001), False),
    (timedelta(0), True),                                # exactly now
    (timedelta(microseconds=-1), False),                 # the future does not count
    (timedelta(hours=-1), False),
])
def test_window_boundary_is_inclusive(ago, expected):
    q = query("user.failed.login", ("PT1.5S", "1.5"))
    assert evaluate(q, ctx(events=[event("user.failed.login", ago)])) is expected


@pytest.mark.parametrize(("event_project", "context_project", "query_name", "expected"), [
    (None, None, "user.failed.login", True),
    ("other", None, "user.failed.login", False),
    ("billing", "billing", "user.failed.login", True),
    (None, "billing", "user.failed.login", True),
    ("other", "billing", "user.failed.login", False),
    ("other", None, "other.user.failed.login", True),
    ("other", "billing", "other.user.failed.login", True),
    (None, None, "other.user.failed.login", False),
    (None, "other", "other.user.failed.login", True),     # no project = the current one
    ("billing", "billing", "other.user.failed.login", False),
])
def test_event_projects(event_project, context_project, query_name, expected):
    context = ctx(events=[event("user.failed.login", project=event_project)],
                  project=context_project)
    assert evaluate(query(query_name), context) is expected


REFUND = query("customer.received.refund", ("P30D", 30 * 86400),
               where=[("customer_id", "{{customer.id}}")])


@pytest.mark.parametrize(("state_id", "attribute", "expected"), [
    ("c1", "c1", True),
    ("c1", "c2", False),
    ("c1", "C1", False),          # string attribute comparison is exact
    (42, "42", True),             # ints are stringified as 42
    (42, 42, True),               # and a number attribute compares by its string form
    (True, "true", True),         # bools in JSON spelling
    (True, "True", False),
    (1.5, "1.5", True),
])
def test_where_template_resolves_from_state(state_id, attribute, expected):
    context = ctx({"customer.id": state_id},
                  events=[event("customer.received.refund", customer_id=attribute)])
    assert evaluate(REFUND, context) is expected


def test_legacy_state_prefixed_template_resolves_too():
    q = query("customer.received.refund", where=[("customer_id", "{{state.customer.id}}")])
    context = ctx({"customer.id": "c1"},
                  events=[event("customer.received.refund", customer_id="c1")])
    assert evaluate(q, context) is True


@pytest.mark.parametrize("state", [{}, {"customer.id": None}, {"customer.id": ["c1"]}],
                         ids=["missing", "null", "list"])
def test_unresolved_template_matches_nothing_so_not_is_true(state):
    literal = event("customer.received.refund", customer_id="{{customer.id}}")
    any_id = event("customer.received.refund", customer_id="c1")
    context = ctx(state, events=[literal, any_id])
    assert evaluate(REFUND, context) is False
    assert evaluate(Not(REFUND), context) is True
    assert evaluate(count(REFUND, "==", 0), context) is True


def test_embedded_template_is_interpolated():
    q = query("customer.received.refund", where=[("ref", "cus-{{customer.id}}")])
    events = [event("customer.received.refund", ref="cus-7")]
    assert evaluate(q, ctx({"customer.id": 7}, events=events)) is True
    assert evaluate(q, ctx({}, events=events)) is False


def test_missing_attribute_matches_nothing():
    q = query("agent.called.tool", where=[("tool_name", "refund")])
    context = ctx(events=[event("agent.called.tool"), event("agent.called.tool", tool_name=None)])
    assert evaluate(q, context) is False
    assert evaluate(Not(q), context) is True


@pytest.mark.parametrize(("attribute", "expected"), [
    (3, True), (3.0, True), (Decimal("3.00"), True), ("3", True), (" 3 ", True),
    (4, False), ("three", False), (True, False), (None, False),
])
def test_where_number_filter_compares_numerically(attribute, expected):
    q = query("order.shipped.package", where=[("quantity", 3)])
    context = ctx(events=[event("order.shipped.package", quantity=attribute)])
    assert evaluate(q, context) is expected


def test_all_where_filters_must_hold_on_the_same_event():
    q = query("agent.called.tool", where=[("customer_id", "{{customer.id}}"),
                                           ("tool_name", "refund")])
    split = [event("agent.called.tool", customer_id="c1", tool_name="lookup"),
             event("agent.called.tool", customer_id="c2", tool_name="refund")]
    joined = split + [event("agent.called.tool", customer_id="c1", tool_name="refund")]
    assert evaluate(q, ctx({"customer.id": "c1"}, events=split)) is False
    assert evaluate(q, ctx({"customer.id": "c1"}, events=joined)) is True


# ---- COUNT ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("n_events", "op", "threshold", "expected"), [
    (0, "==", 0, True), (0, ">=", 1, False), (4, ">=", 5, False), (5, ">=", 5, True),
    (6, ">", 5, True), (5, "<", 5, False), (2, "!=", 2, False), (3, "<=", 3, True),
])
def test_count(n_events, op, threshold, expected):
    q = query("user.failed.login", ("PT15M", 900))
    events = [event("user.failed.login", timedelta(minutes=i)) for i in range(n_events)]
    events += [event("user.failed.login", timedelta(minutes=16)),
               event("user.failed.logout", timedelta(minutes=1))]
    assert evaluate(count(q, op, threshold), ctx(events=events)) is expected


def test_count_with_where_counts_only_matching_events():
    q = query("agent.called.tool", where=[("customer_id", "{{customer.id}}"),
                                           ("tool_name", "refund")])
    events = [event("agent.called.tool", timedelta(minutes=i), customer_id="c1",
                    tool_name="refund") for i in range(3)]
    events += [event("agent.called.tool", customer_id="c2", tool_name="refund")]
    context = ctx({"customer.id": "c1"}, events=events)
    assert evaluate(count(q, ">=", 3), context) is True
    assert evaluate(count(q, ">=", 4), context) is False


def test_count_threshold_may_be_decimal():
    q = query("user.failed.login")
    context = ctx(events=[event("user.failed.login")] * 2)
    assert evaluate(count(q, ">", Decimal("1.5")), context) is True
