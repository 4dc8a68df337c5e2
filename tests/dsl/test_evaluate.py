"""The evaluator, one rule per test, each with the context in which the rule decides the result.

Triggers are written as DSL text and parsed; the few ASTs the parser rejects (string literals in
arithmetic, an invalid MATCHES pattern) are built directly, because the evaluator must still be
total on them (the fuzzer builds ASTs, not text).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from topo.audit.dsl import EvalContext, EvaluationError, Event, evaluate, parse_trigger
from topo.audit.dsl.ast import Arith, Compare, NumberLit, StateRef, StringLit, StrOp, TextSpan
from topo.audit.dsl.evaluate import MAX_MATCH_SUBJECT

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def parse(text: str):
    result = parse_trigger(text)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert result.ast is not None and not errors, (text, result.diagnostics)
    return result.ast


def run(text: str, context: EvalContext | None = None, **options) -> bool:
    return evaluate(parse(text), context or EMPTY, **options)


def ctx(state=None, tags=None, events=(), project=None) -> EvalContext:
    return EvalContext(state=state or {}, tags=tags or {}, events=tuple(events), now=NOW,
                       project=project)


def event(name, ago=timedelta(minutes=1), project=None, **attributes) -> Event:
    return Event(name, NOW - ago, attributes, project)


EMPTY = ctx()


# ---- the plugin's empty-context table (memrail-facts §2.2) ---------------------------------

@pytest.mark.parametrize(("trigger", "expected"), [
    ("state.user.verified == true", False),
    ("NOT state.user.verified", True),
    ("state.user.verified EXISTS AND NOT state.user.verified", False),
    ("COUNT event.user.failed.login IN 'PT0.5S' == 0", True),
])
def test_empty_context_table(trigger, expected):
    assert run(trigger) is expected


# ---- absent atoms --------------------------------------------------------------------------

POSITIVE_ON_ABSENT = [
    "state.user.tier == 'gold'",
    "state.user.tier != 'gold'",
    "state.order.total < 10",
    "state.order.total >= 10",
    "state.user.role IN ['admin', 5]",
    "state.case.ref STARTS_WITH ''",
    "state.case.ref ENDS_WITH ''",
    "state.case.ref CONTAINS ''",
    "state.case.ref MATCHES '.*'",
    "state.account.verified",
    "state.account.verified EXISTS",
    "tag.intent == 'refund'",
    "tag.intent != 'refund'",
    "tag.intent",
    "state.a.b == state.c.d",
    "state.a.b != state.c.d",
    "state.order.total + 1 > 0",
]
NULLS = ctx({"user.tier": None, "order.total": None, "user.role": None, "case.ref": None,
             "account.verified": None, "a.b": None, "c.d": None}, {"intent": None})


@pytest.mark.parametrize("trigger", POSITIVE_ON_ABSENT)
@pytest.mark.parametrize("context", [EMPTY, NULLS], ids=["missing", "null"])
def test_positive_predicate_on_absent_atom_is_false_and_not_flips_it(trigger, context):
    assert run(trigger, context) is False
    assert run(f"NOT ({trigger})", context) is True


def test_empty_string_patterns_do_match_a_present_string():
    # The counterpart of the absent case above: the same predicates are true once present.
    for op in ("STARTS_WITH", "ENDS_WITH", "CONTAINS"):
        assert run(f"state.case.ref {op} ''", ctx({"case.ref": "EU-1"})) is True


def test_not_banned_is_true_when_banned_is_missing_but_guarded_form_is_false():
    assert run("NOT state.user.banned") is True
    guarded = "state.user.banned EXISTS AND state.user.banned == false"
    assert run(guarded) is False
    assert run(guarded, ctx({"user.banned": False})) is True


@pytest.mark.parametrize(("value", "exists"), [(None, False), ("", True), (0, True),
                                                (False, True), ([], True)])
def test_exists_means_present_and_non_null(value, exists):
    assert run("state.user.email EXISTS", ctx({"user.email": value})) is exists
    assert run("tag.channel EXISTS", ctx(tags={"channel": value})) is exists


def test_or_matches_through_another_branch_when_one_atom_is_missing():
    trigger = "state.user.tier == 'gold' OR tag.intent == 'refund'"
    assert run(trigger, ctx(tags={"intent": "refund"})) is True
    assert run(trigger, ctx(tags={"intent": "upgrade"})) is False


# ---- truthiness ----------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    (1, True), (-1, True), (0, False), (0.0, False), (-0.5, True), (Decimal("0.00"), False),
    ("", False), ("false", False), ("FALSE", False), ("No", False), ("0", False),
    ("unknown", True), ("yes", True), ("true", True), (" no ", True), ("0.0", True),
    (True, True), (False, False), (None, False),
    ([], False), ([0], True), ({}, False), ({"a": 1}, True),
])
def test_truthiness_of_the_shorthand(value, expected):
    assert run("state.account.verified", ctx({"account.verified": value})) is expected
    assert run("NOT state.account.verified", ctx({"account.verified": value})) is not expected


def test_tag_truthiness_uses_the_same_rule():
    assert run("tag.urgent", ctx(tags={"urgent": "No"})) is False
    assert run("tag.urgent", ctx(tags={"urgent": "unknown"})) is True


# ---- equality and normalisation ------------------------------------------------------------

def test_state_string_equality_is_case_sensitive():
    assert run("state.user.role == 'admin'", ctx({"user.role": "admin"})) is True
    assert run("state.user.role == 'admin'", ctx({"user.role": "ADMIN"})) is False
    assert run("state.user.role != 'admin'", ctx({"user.role": "ADMIN"})) is True


@pytest.mark.parametrize("value", ["refund", "REFUND", "  Refund ", "ｒｅｆｕｎｄ"])
def test_tag_equality_normalises_the_value(value):
    context = ctx(tags={"intent": value})
    assert run("tag.intent == 'refund'", context) is True
    assert run("tag.intent != 'Refund'", context) is False
    assert run("tag.intent == 'refunds'", context) is False


@pytest.mark.parametrize("kind", ["Intent", " intent ", "INTENT", "ｉｎｔｅｎｔ"])
def test_tag_kind_lookup_is_normalised(kind):
    assert run("tag.intent == 'refund'", ctx(tags={kind: "refund"})) is True


def test_tag_kind_exact_key_wins_over_a_normalised_one():
    assert run("tag.intent == 'refund'", ctx(tags={"INTENT": "upgrade", "intent": "refund"}))


def test_tag_compared_with_state_normalises_both_strings():
    context = ctx({"user.intent": "REFUND", "user.other": "refund"}, {"intent": "refund"})
    assert run("tag.intent == state.user.intent", context) is True
    assert run("state.user.intent == state.user.other", context) is False


def test_membership_normalises_strings_but_equality_does_not():
    context = ctx({"user.role": "ADMIN"})
    assert run("state.user.role IN ['admin']", context) is True
    assert run("state.user.role == 'admin'", context) is False


@pytest.mark.parametrize(("value", "items", "expected"), [
    ("5", "[5]", False),
    (5, "['5']", False),
    (5, "[5]", True),
    (5.0, "[5]", True),
    (Decimal("2.50"), "[2.5]", True),
    (True, "[true]", True),
    (1, "[true]", False),
    (True, "[1]", False),
    (" Ａdmin ", "['owner', 'admin']", True),
    (["admin"], "['admin']", False),
    ("gold", "[]", False),
])
def test_membership(value, items, expected):
    assert run(f"state.user.role IN {items}", ctx({"user.role": value})) is expected


def test_tag_membership_normalises():
    trigger = "tag.intent IN ['refund_request', 'charge_dispute']"
    assert run(trigger, ctx(tags={"intent": "Refund_Request "})) is True
    assert run(trigger, ctx(tags={"intent": "refund"})) is False


# ---- comparisons and coercion --------------------------------------------------------------

@pytest.mark.parametrize(("value", "comparison", "expected"), [
    ("10", "> 5", True),          # numeric-looking strings are coerced by comparisons
    ("10", "< 5", False),
    (" 10 ", "== 10", True),
    ("1e3", ">= 1000", True),
    ("10", "> '9'", True),        # both numeric-looking: numeric order, not lexicographic
    ("abc", "> 5", False),        # not numeric: incomparable, false either way
    ("abc", "< 5", False),
    ("abc", "!= 5", True),        # both present and different
    ("NaN", "== 0", False),
    ("1_000", "> 5", False),
    ("1e999999999", "> 5", True),
    ("1e9999999999", "> 5", False),  # exponent too long to be numeric-looking
    (Decimal("1e9999999999999"), "> 5", False),  # beyond the magnitude the evaluator handles
    ("007", "== '7'", False),     # two strings are compared as strings for equality
    ("b", "> 'a'", True),         # non-numeric strings order by code point
    (10, "== 10.0", True),
    (0.1, "== 0.1", True),        # floats read through their shortest repr
    (-3, "< -2.5", True),
    (1000, ">= 1000", True),
    (999, ">= 1000", False),
    (1, "== true", False),        # a bool is not a number
    (1, "!= true", True),
    (True, "== true", True),
    (False, "== false", True),
    (False, "!= true", True),
    ("true", "== true", False),   # no string-to-bool coercion
    (True, "> false", False),     # bools have no order
    ([1], "== 1", False),
])
def test_comparison(value, comparison, expected):
    assert run(f"state.a.b {comparison}", ctx({"a.b": value})) is expected


def test_accessor_vs_accessor():
    trigger = "state.refund.amount > state.customer.refund_limit"
    assert run(trigger, ctx({"refund.amount": 600, "customer.refund_limit": 500})) is True
    assert run(trigger, ctx({"refund.amount": 400, "customer.refund_limit": 500})) is False
    assert run(trigger, ctx({"refund.amount": 600})) is False
    assert run(trigger, ctx({"customer.refund_limit": 500})) is False
    unequal = "state.refund.amount != state.customer.refund_limit"
    assert run(unequal, ctx({"refund.amount": 600})) is False
    assert run(unequal, ctx({"refund.amount": 600, "customer.refund_limit": 500})) is True


# ---- arithmetic ----------------------------------------------------------------------------

BUDGET = "state.request.cost + state.budget.spent <= state.budget.limit"


def test_arithmetic_comparison():
    assert run(BUDGET, ctx({"request.cost": 5, "budget.spent": 90, "budget.limit": 95})) is True
    assert run(BUDGET, ctx({"request.cost": 6, "budget.spent": 90, "budget.limit": 95})) is False


def test_multiplication_binds_tighter_than_addition():
    assert run("state.a.x + state.a.y * 2 == 7", ctx({"a.x": 1, "a.y": 3})) is True


def test_arithmetic_is_exact():
    assert run("state.a.x + state.a.y == 0.3", ctx({"a.x": 0.1, "a.y": 0.2})) is True
    assert run("state.a.x / 3 * 3 == 1", ctx({"a.x": 1})) is False  # 0.99…9 at 60 digits
    assert run("state.a.x / 4 == 0.25", ctx({"a.x": 1})) is True


def test_missing_operand_makes_the_comparison_false_and_not_true():
    context = ctx({"request.cost": 5, "budget.limit": 95})
    assert run(BUDGET, context) is False
    assert run(f"NOT ({BUDGET})", context) is True
    assert run("state.request.cost + state.budget.spent != 0", context) is False


@pytest.mark.parametrize("divisor", [0, "0", 0.0])
def test_division_by_zero_makes_the_comparison_false(divisor):
    context = ctx({"a.x": 1, "a.y": divisor})
    assert run("state.a.x / state.a.y > 0", context) is False
    assert run("NOT (state.a.x / state.a.y > 0)", context) is True
    assert run("state.a.x / state.a.y != 0", context) is False


@pytest.mark.parametrize("bad", ["abc", True, [1], {"a": 1}])
def test_non_numeric_arithmetic_is_an_evaluation_error(bad):
    text = "state.a.x + state.a.y > 0"
    with pytest.raises(EvaluationError, match="non-numeric") as caught:
        run(text, ctx({"a.x": 1, "a.y": bad}))
    # The span points at the offending operand in the trigger text.
    span = caught.value.span
    assert text[span.start:span.end] == "state.a.y"


def test_numeric_strings_are_coerced_in_arithmetic():
    assert run("state.a.x * 2 == 21", ctx({"a.x": "10.5"})) is True


def test_string_literal_operand_is_an_error():
    # The parser rejects this (DSL-ARITH-OPERAND); an AST built directly still evaluates.
    trigger = Compare("==", Arith("+", StateRef("a.x"), StringLit("x")), NumberLit(1))
    with pytest.raises(EvaluationError):
        evaluate(trigger, ctx({"a.x": 1}))


def test_absent_operand_wins_over_a_non_numeric_one():
    # Absence is checked across the whole comparison first: false, not an error.
    assert run("state.a.x + state.a.y > 0", ctx({"a.x": "abc"})) is False
    nested = "state.a.x * 2 + state.a.y > 0"
    assert run(nested, ctx({"a.x": "abc"})) is False
    with pytest.raises(EvaluationError):
        run(nested, ctx({"a.x": "abc", "a.y": 1}))
    across = Compare("==", Arith("+", NumberLit(1), StringLit("gold")), StateRef("user.verified"))
    assert evaluate(across, EMPTY) is False
    with pytest.raises(EvaluationError):
        evaluate(across, ctx({"user.verified": 1}))


def test_and_or_short_circuit_past_an_erroring_branch():
    error = "state.a.x + 1 > 0"
    context = ctx({"a.x": "abc", "a.ok": True})
    assert run(f"state.a.ok OR {error}", context) is True
    assert run(f"NOT state.a.ok AND {error}", context) is False
    with pytest.raises(EvaluationError):
        run(f"state.a.ok AND {error}", context)


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
    assert run(f"state.doc.code {op} '{pattern}'", ctx({"doc.code": value})) is expected


def test_string_operators_on_tags_are_not_normalised():
    trigger = "tag.intent STARTS_WITH 'refund'"
    assert run(trigger, ctx(tags={"intent": "Refund_request"})) is False
    assert run(trigger, ctx(tags={"intent": "refund_request"})) is True


@pytest.mark.parametrize(("pattern", "subject"), [
    ("(a+)+$", "a" * 40 + "b"),
    ("(a|aa)+$", "a" * 40 + "b"),
    ("^(a|a?)+$", "a" * 40 + "b"),
])
def test_pathological_matches_is_bounded(pattern, subject):
    context = ctx({"doc.code": subject})
    try:
        result = run(f"state.doc.code MATCHES '{pattern}'", context, match_timeout=0.05)
    except EvaluationError as error:
        assert "did not finish" in error.message
    else:
        assert result is False


def test_matches_timeout_is_an_evaluation_error_naming_the_pattern():
    # `(a|aa)+$` defeats the regex module's own backtracking safeguards. Default limit.
    with pytest.raises(EvaluationError, match=r"\(a\|aa\)\+\$.*did not finish"):
        run("state.doc.code MATCHES '(a|aa)+$'", ctx({"doc.code": "a" * 40 + "b"}))


@pytest.mark.parametrize("pattern", ["([A-Z", "a{99999999999999999999}", "(?V1)[[a]--[b]]"])
def test_invalid_matches_pattern_is_an_evaluation_error(pattern):
    # The parser rejects some of these (DSL-REGEX-INVALID); an AST built directly still fails
    # cleanly, with the StrOp's span.
    trigger = StrOp("MATCHES", StateRef("doc.code"), StringLit(pattern), TextSpan(0, 25))
    with pytest.raises(EvaluationError, match="not a valid regular expression") as caught:
        evaluate(trigger, ctx({"doc.code": "ABC"}))
    assert caught.value.span == TextSpan(0, 25)


def test_matches_subject_length_is_capped():
    trigger = "state.doc.code MATCHES 'x'"
    assert run(trigger, ctx({"doc.code": "a" * MAX_MATCH_SUBJECT})) is False
    with pytest.raises(EvaluationError, match="limit"):
        run(trigger, ctx({"doc.code": "a" * (MAX_MATCH_SUBJECT + 1)}))


# ---- events --------------------------------------------------------------------------------

def test_event_query_matches_by_name_within_the_window():
    q = "event.agent.sent.email IN 'PT24H'"
    assert run(q, ctx(events=[event("agent.sent.email", timedelta(hours=2))])) is True
    assert run(q, ctx(events=[event("agent.sent.sms", timedelta(hours=2))])) is False
    assert run(q, ctx(events=[event("agent.sent.email", timedelta(hours=25))])) is False
    assert run(f"NOT {q}") is True


@pytest.mark.parametrize(("ago", "expected"), [
    (timedelta(seconds=1.5), True),                      # exactly on the boundary: inclusive
    (timedelta(seconds=1, microseconds=499_999), True),
    (timedelta(seconds=1, microseconds=500_001), False),
    (timedelta(0), True),                                # exactly now
    (timedelta(microseconds=-1), False),                 # the future does not count
    (timedelta(hours=-1), False),
])
def test_window_boundary_is_inclusive(ago, expected):
    context = ctx(events=[event("user.failed.login", ago)])
    assert run("event.user.failed.login IN 'PT1.5S'", context) is expected
    assert run("COUNT event.user.failed.login IN 'PT1.5S' == 1", context) is expected


@pytest.mark.parametrize(("event_project", "context_project", "query", "expected"), [
    (None, None, "event.user.failed.login", True),
    ("other", None, "event.user.failed.login", False),
    ("billing", "billing", "event.user.failed.login", True),
    (None, "billing", "event.user.failed.login", True),
    ("other", "billing", "event.user.failed.login", False),
    ("other", None, "event.other.user.failed.login", True),
    ("other", "billing", "event.other.user.failed.login", True),
    (None, None, "event.other.user.failed.login", False),
    (None, "other", "event.other.user.failed.login", True),     # no project = the current one
    ("billing", "billing", "event.other.user.failed.login", False),
])
def test_event_projects(event_project, context_project, query, expected):
    context = ctx(events=[event("user.failed.login", project=event_project)],
                  project=context_project)
    assert run(f"{query} IN 'PT1H'", context) is expected


REFUND = "event.customer.received.refund WHERE customer_id == '{{customer.id}}' IN 'P30D'"


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
    assert run(REFUND, context) is expected


def test_legacy_state_prefixed_template_resolves_too():
    legacy = REFUND.replace("{{customer.id}}", "{{state.customer.id}}")
    context = ctx({"customer.id": "c1"},
                  events=[event("customer.received.refund", customer_id="c1")])
    assert run(legacy, context) is True
    assert run(legacy, ctx({"customer.id": "c2"}, events=context.events)) is False


@pytest.mark.parametrize("state", [{}, {"customer.id": None}, {"customer.id": ["c1"]}],
                         ids=["missing", "null", "list"])
def test_unresolved_template_matches_nothing_so_not_is_true(state):
    literal = event("customer.received.refund", customer_id="{{customer.id}}")
    any_id = event("customer.received.refund", customer_id="c1")
    context = ctx(state, events=[literal, any_id])
    assert run(REFUND, context) is False
    assert run(f"NOT {REFUND}", context) is True
    assert run(f"COUNT {REFUND} == 0", context) is True


def test_embedded_template_is_interpolated():
    q = "event.customer.received.refund WHERE ref == 'cus-{{customer.id}}' IN 'P30D'"
    events = [event("customer.received.refund", ref="cus-7")]
    assert run(q, ctx({"customer.id": 7}, events=events)) is True
    assert run(q, ctx({"customer.id": 8}, events=events)) is False
    assert run(q, ctx({}, events=events)) is False
    legacy = q.replace("{{customer.id}}", "{{ state.customer.id }}")
    assert run(legacy, ctx({"customer.id": 7}, events=events)) is True


def test_missing_attribute_matches_nothing():
    q = "event.agent.called.tool WHERE tool_name == 'refund' IN 'PT1H'"
    context = ctx(events=[event("agent.called.tool"), event("agent.called.tool", tool_name=None)])
    assert run(q, context) is False
    assert run(f"NOT {q}", context) is True
    assert run(q, ctx(events=[event("agent.called.tool", tool_name="refund")])) is True


@pytest.mark.parametrize(("attribute", "expected"), [
    (3, True), (3.0, True), (Decimal("3.00"), True), ("3", True), (" 3 ", True),
    (4, False), ("three", False), (True, False), (None, False),
])
def test_where_number_filter_compares_numerically(attribute, expected):
    q = "event.order.shipped.package WHERE quantity == 3 IN 'P7D'"
    assert run(q, ctx(events=[event("order.shipped.package", quantity=attribute)])) is expected


def test_all_where_filters_must_hold_on_the_same_event():
    q = ("event.agent.called.tool WHERE customer_id == '{{customer.id}}' AND tool_name == 'refund'"
         " IN 'PT1H'")
    split = [event("agent.called.tool", customer_id="c1", tool_name="lookup"),
             event("agent.called.tool", customer_id="c2", tool_name="refund")]
    joined = split + [event("agent.called.tool", customer_id="c1", tool_name="refund")]
    assert run(q, ctx({"customer.id": "c1"}, events=split)) is False
    assert run(q, ctx({"customer.id": "c1"}, events=joined)) is True


# ---- COUNT ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("n_events", "comparison", "expected"), [
    (0, "== 0", True), (0, ">= 1", False), (4, ">= 5", False), (5, ">= 5", True),
    (6, "> 5", True), (5, "< 5", False), (2, "!= 2", False), (3, "<= 3", True),
])
def test_count(n_events, comparison, expected):
    events = [event("user.failed.login", timedelta(minutes=i)) for i in range(n_events)]
    events += [event("user.failed.login", timedelta(minutes=16)),
               event("user.failed.logout", timedelta(minutes=1))]
    context = ctx(events=events)
    assert run(f"COUNT event.user.failed.login IN 'PT15M' {comparison}", context) is expected
    assert run(f"COUNT(event.user.failed.login IN 'PT15M') {comparison}", context) is expected


def test_count_with_where_counts_only_matching_events():
    q = ("COUNT event.agent.called.tool WHERE customer_id == '{{customer.id}}' AND "
         "tool_name == 'refund' IN 'PT1H'")
    events = [event("agent.called.tool", timedelta(minutes=i), customer_id="c1",
                    tool_name="refund") for i in range(3)]
    events += [event("agent.called.tool", customer_id="c2", tool_name="refund")]
    context = ctx({"customer.id": "c1"}, events=events)
    assert run(f"{q} >= 3", context) is True
    assert run(f"{q} >= 4", context) is False


def test_count_threshold_may_be_decimal():
    context = ctx(events=[event("user.failed.login")] * 2)
    assert run("COUNT event.user.failed.login IN 'PT1H' > 1.5", context) is True
    assert run("COUNT event.user.failed.login IN 'PT1H' > 2.5", context) is False
