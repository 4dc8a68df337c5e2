"""The parser: each construct's AST, precedence, and each diagnostic with its column and hint."""

from __future__ import annotations

from decimal import Decimal

import pytest

from topo.audit.dsl import DSL_CODES, parse_trigger
from topo.audit.dsl.ast import (And, Arith, BoolLit, Compare, Count, Duration, EventQuery, EventRef,
                                Exists, InList, ListLit, Not, NumberLit, Or, StateRef, StringLit,
                                StrOp, TagRef, TextSpan, Truthy, WhereFilter)
from topo.audit.dsl.diagnostics import Diagnostic

A, B, C = StateRef("a.b"), StateRef("c.d"), StateRef("e.f")
TA, TB, TC = Truthy(A), Truthy(B), Truthy(C)


def parsed(text: str):
    result = parse_trigger(text)
    assert result.ok and result.diagnostics == (), result.diagnostics
    return result.ast


def error(text: str) -> Diagnostic:
    result = parse_trigger(text)
    assert not result.ok and result.ast is None
    assert result.diagnostics[-1].severity == "error"
    return result.diagnostics[-1]


def n(value: int | str) -> NumberLit:
    return NumberLit(Decimal(value) if isinstance(value, str) else value)


# ---- constructs ----------------------------------------------------------------------------

CONSTRUCTS = [
    ("state.user.tier == 'premium'", Compare("==", StateRef("user.tier"), StringLit("premium"))),
    ("state.order.total >= 1000", Compare(">=", StateRef("order.total"), n(1000))),
    ("state.account.balance < 0", Compare("<", StateRef("account.balance"), n(0))),
    ("state.a.b != 1.25", Compare("!=", A, n("1.25"))),
    ("state.a.b > -3", Compare(">", A, n(-3))),
    ("state.a.b == true", Compare("==", A, BoolLit(True))),
    ("state.refund.amount > state.customer.refund_limit",
     Compare(">", StateRef("refund.amount"), StateRef("customer.refund_limit"))),
    ("tag.intent == tag.other", Compare("==", TagRef("intent"), TagRef("other"))),
    ("state.a.b.c.d.e.f.g == 1", Compare("==", StateRef("a.b.c.d.e.f.g"), n(1))),
    ("state.account.verified", Truthy(StateRef("account.verified"))),
    ("tag.urgent", Truthy(TagRef("urgent"))),
    ("NOT state.user.banned", Not(Truthy(StateRef("user.banned")))),
    ("state.user.email EXISTS", Exists(StateRef("user.email"))),
    ("tag.intent EXISTS", Exists(TagRef("intent"))),
    ("state.user.tier IN ['gold', 'platinum']",
     InList(StateRef("user.tier"), ListLit((StringLit("gold"), StringLit("platinum"))))),
    ("tag.code IN [200, -1.5, true, 'x']",
     InList(TagRef("code"), ListLit((n(200), n("-1.5"), BoolLit(True), StringLit("x"))))),
    ("state.a.b IN []", InList(A, ListLit(()))),
    ("state.user.email ENDS_WITH '@company.com'",
     StrOp("ENDS_WITH", StateRef("user.email"), StringLit("@company.com"))),
    ("state.case.reference STARTS_WITH 'EU-'",
     StrOp("STARTS_WITH", StateRef("case.reference"), StringLit("EU-"))),
    ("tag.subject CONTAINS 'URGENT'", StrOp("CONTAINS", TagRef("subject"), StringLit("URGENT"))),
    (r"state.document.code MATCHES '^[A-Z]{3}-\d{4}$'",
     StrOp("MATCHES", StateRef("document.code"), StringLit(r"^[A-Z]{3}-\d{4}$"))),
    ("event.agent.sent.email IN 'PT24H'",
     EventQuery(EventRef("agent", "sent", "email"), (), Duration("PT24H", Decimal(86400)))),
    ("event.billing.customer.paid.invoice IN 'P1D'",
     EventQuery(EventRef("customer", "paid", "invoice", "billing"), (),
                Duration("P1D", Decimal(86400)))),
    ("event.order.shipped.package WHERE order_id == 'ord-456' IN 'P7D'",
     EventQuery(EventRef("order", "shipped", "package"),
                (WhereFilter("order_id", StringLit("ord-456")),),
                Duration("P7D", Decimal(604800)))),
    ("event.a.called.tool WHERE customer_id == '{{customer.id}}' AND attempts == 3 "
     "AND delta == -0.5 IN 'PT1.5S'",
     EventQuery(EventRef("a", "called", "tool"),
                (WhereFilter("customer_id", StringLit("{{customer.id}}")),
                 WhereFilter("attempts", n(3)), WhereFilter("delta", n("-0.5"))),
                Duration("PT1.5S", Decimal("1.5")))),
    ("COUNT event.user.failed.login IN 'PT10M' >= 5",
     Count(EventQuery(EventRef("user", "failed", "login"), (), Duration("PT10M", Decimal(600))),
           ">=", n(5))),
    ("NOT event.agent.responded.ticket IN 'PT2H'",
     Not(EventQuery(EventRef("agent", "responded", "ticket"), (), Duration("PT2H",
                                                                              Decimal(7200))))),
]


@pytest.mark.parametrize("text, expected", CONSTRUCTS, ids=[c[0][:50] for c in CONSTRUCTS])
def test_construct(text: str, expected: object) -> None:
    assert parsed(text) == expected


def test_count_forms_are_equal_and_remember_their_style() -> None:
    bare = parsed("COUNT event.user.failed.login IN 'PT15M' >= 5")
    wrapped = parsed("COUNT(event.user.failed.login IN 'PT15M') >= 5")
    assert bare == wrapped
    assert (bare.parenthesized, wrapped.parenthesized) == (False, True)


def test_count_with_where_and_multi_line() -> None:
    ast = parsed("COUNT event.agent.called.tool\n  WHERE customer_id == '{{customer.id}}' "
                 "AND tool_name == 'refund'\n  IN 'PT1H' >= 3")
    assert isinstance(ast, Count) and ast.op == ">=" and ast.threshold == n(3)
    assert [w.attr for w in ast.query.where] == ["customer_id", "tool_name"]


def test_string_escapes_are_kept_verbatim_except_the_quote() -> None:
    assert parsed(r"state.a.b == 'it\'s'").right == StringLit("it's")
    assert parsed(r"state.a.b == 'a\\b'").right == StringLit(r"a\\b")
    assert parsed(r"state.a.b MATCHES '\d+\.\d'").pattern == StringLit(r"\d+\.\d")


def test_spans_are_character_offsets() -> None:
    ast = parsed("  state.user.tier == 'premium'")
    assert ast.span == TextSpan(2, 30)
    assert ast.left.span == TextSpan(2, 17)
    assert ast.right.span == TextSpan(21, 30)
    event = parsed("NOT event.a.b.c IN 'P1D'").operand
    assert event.span == TextSpan(4, 24) and event.window.span == TextSpan(19, 24)


# ---- precedence ----------------------------------------------------------------------------

PRECEDENCE = [
    ("state.a.b OR state.c.d AND state.e.f", Or(TA, And(TB, TC))),
    ("state.a.b AND state.c.d OR state.e.f", Or(And(TA, TB), TC)),
    ("NOT state.a.b AND state.c.d", And(Not(TA), TB)),
    ("NOT state.a.b OR state.c.d", Or(Not(TA), TB)),
    ("NOT (state.a.b AND state.c.d)", Not(And(TA, TB))),
    ("NOT NOT state.a.b", Not(Not(TA))),
    ("NOT state.a.b == 1", Not(Compare("==", A, n(1)))),
    ("NOT state.a.b EXISTS", Not(Exists(A))),
    ("(state.a.b OR state.c.d) AND state.e.f", And(Or(TA, TB), TC)),
    ("state.a.b AND state.c.d AND state.e.f", And(And(TA, TB), TC)),
    ("state.a.b OR state.c.d OR state.e.f", Or(Or(TA, TB), TC)),
    ("state.a.b OR (state.c.d OR state.e.f)", Or(TA, Or(TB, TC))),
    ("state.a.b + state.c.d * 2 > 3", Compare(">", Arith("+", A, Arith("*", B, n(2))), n(3))),
    ("state.a.b * 2 + state.c.d > 3", Compare(">", Arith("+", Arith("*", A, n(2)), B), n(3))),
    ("(state.a.b + 1) * 2 > 3", Compare(">", Arith("*", Arith("+", A, n(1)), n(2)), n(3))),
    ("state.a.b - 1 - 2 > 0", Compare(">", Arith("-", Arith("-", A, n(1)), n(2)), n(0))),
    ("state.a.b - (1 - 2) > 0", Compare(">", Arith("-", A, Arith("-", n(1), n(2))), n(0))),
    ("state.a.b / 2 / 4 > 0", Compare(">", Arith("/", Arith("/", A, n(2)), n(4)), n(0))),
    ("state.a.b - -1 > 0", Compare(">", Arith("-", A, n(-1)), n(0))),
    ("state.a.b -1 > 0", Compare(">", Arith("-", A, n(1)), n(0))),
    ("state.a.b-1 > -1", Compare(">", Arith("-", A, n(1)), n(-1))),
    ("-2 * state.a.b > 0", Compare(">", Arith("*", n(-2), A), n(0))),
    ("state.request.cost + state.budget.spent <= state.budget.limit",
     Compare("<=", Arith("+", StateRef("request.cost"), StateRef("budget.spent")),
             StateRef("budget.limit"))),
    ("state.a.b > state.c.d + 1 AND state.e.f", And(Compare(">", A, Arith("+", B, n(1))), TC)),
    # The `(` ambiguity: a boolean group and an arithmetic group in one expression.
    ("((state.a.b + 1) > 2 OR (tag.k == 'x')) AND (state.c.d)",
     And(Or(Compare(">", Arith("+", A, n(1)), n(2)), Compare("==", TagRef("k"), StringLit("x"))),
         TB)),
    ("(state.a.b) EXISTS", Exists(A)),
]


@pytest.mark.parametrize("text, expected", PRECEDENCE, ids=[c[0] for c in PRECEDENCE])
def test_precedence(text: str, expected: object) -> None:
    assert parsed(text) == expected


def test_multi_line_trigger() -> None:
    ast = parsed("(state.user.tier == 'premium' OR state.user.tier == 'enterprise')\n"
                 "AND state.account.verified")
    assert isinstance(ast, And) and isinstance(ast.left, Or)
    assert ast.right == Truthy(StateRef("account.verified"))


def test_legacy_template_is_accepted_with_a_warning() -> None:
    text = "NOT event.a.b.c WHERE id == '{{state.customer.id}}' IN 'P1D'"
    result = parse_trigger(text)
    assert result.ok
    [warning] = result.diagnostics
    assert (warning.code.id, warning.severity) == ("DSL-LEGACY-TEMPLATE", "warning")
    assert warning.span == TextSpan(28, 51)
    assert "'{{customer.id}}'" in warning.hint
    assert result.ast.operand.where[0].value.template_key == "customer.id"


def test_a_warning_is_kept_when_a_later_error_stops_the_parse() -> None:
    result = parse_trigger("event.a.b.c WHERE id == '{{state.c.d}}' IN 'P1D' and tag.k")
    assert [d.code.id for d in result.diagnostics] == ["DSL-LEGACY-TEMPLATE",
                                                       "DSL-LOWERCASE-OPERATOR"]
    assert not result.ok


# ---- diagnostics ---------------------------------------------------------------------------

# (text, code, 1-based column, a fragment of the hint or None for no hint check)
DIAGNOSTICS = [
    ("state.user.tier == 'a' and state.user.age > 3", "DSL-LOWERCASE-OPERATOR", 24, "use `AND`"),
    ("state.a.b or state.c.d", "DSL-LOWERCASE-OPERATOR", 11, "use `OR`"),
    ("not state.a.b", "DSL-LOWERCASE-OPERATOR", 1, "use `NOT`"),
    ("state.a.b exists", "DSL-LOWERCASE-OPERATOR", 11, "use `EXISTS`"),
    ("state.a.b in ['x']", "DSL-LOWERCASE-OPERATOR", 11, "use `IN`"),
    ("event.a.b.c in 'P1D'", "DSL-LOWERCASE-OPERATOR", 13, "use `IN`"),
    ("count event.a.b.c IN 'P1D' > 1", "DSL-LOWERCASE-OPERATOR", 1, "use `COUNT`"),
    ("event.a.b.c where x == 'y' IN 'P1D'", "DSL-LOWERCASE-OPERATOR", 13, "use `WHERE`"),
    ("event.a.b.c WHERE x == 'y' and z == 1 IN 'P1D'", "DSL-LOWERCASE-OPERATOR", 28, "`AND`"),
    ("event.a.b.c and state.a.b", "DSL-EVENT-WINDOW-MISSING", 1, None),
    ("state.a.b Matches 'x'", "DSL-LOWERCASE-OPERATOR", 11, "use `MATCHES`"),
    ('state.user.tier == "premium"', "DSL-DOUBLE-QUOTE", 20, "write 'premium'"),
    ('state.a.b == "it\'s"', "DSL-DOUBLE-QUOTE", 14, r"write 'it\'s'"),
    ('state.a.b == "open', "DSL-DOUBLE-QUOTE", 14, None),
    ("state.tier == 'premium'", "DSL-STATE-KEY-SEGMENTS", 1, "state.user.tier"),
    ("state == 1", "DSL-STATE-KEY-SEGMENTS", 1, None),
    ("state.a.b.c.d.e.f.g.h == 1", "DSL-STATE-KEY-SEGMENTS", 1, None),
    ("state.User.Tier == 'premium'", "DSL-KEY-CASE", 7, "write `state.user.tier`"),
    ("State.user.tier == 'premium'", "DSL-KEY-CASE", 1, "write `state.user.tier`"),
    ("tag.Intent == 'x'", "DSL-KEY-CASE", 5, "`tag.intent`"),
    ("state.user..tier == 1", "DSL-KEY-SEGMENT", 11, None),
    ("state.user.2fa == 1", "DSL-KEY-SEGMENT", 12, None),
    ("state.user. == 1", "DSL-KEY-SEGMENT", 11, None),
    ("state.usér.tier == 1", "DSL-KEY-SEGMENT", 7, None),
    ("state.user.été == 1", "DSL-KEY-SEGMENT", 12, None),
    ("tag.intent.primary == 'x'", "DSL-TAG-SEGMENTS", 1, "state."),
    ("tag == 'x'", "DSL-TAG-SEGMENTS", 1, None),
    ("event.user.created.account", "DSL-EVENT-WINDOW-MISSING", 1, "IN 'P7D'"),
    ("NOT event.a.b.c AND state.a.b", "DSL-EVENT-WINDOW-MISSING", 5, None),
    ("event.a.b.c WHERE x == 'y' AND state.a.b EXISTS", "DSL-EVENT-WINDOW-MISSING", 28, "IN"),
    ("event.a.b.c WHERE x == 'y'", "DSL-EVENT-WINDOW-MISSING", 1, None),
    ("event.user.login IN 'PT1H'", "DSL-EVENT-NAME-SVO", 1, "event.user.failed.login"),
    ("event.a.b.c.d.e IN 'PT1H'", "DSL-EVENT-NAME-SVO", 1, None),
    ("event.user.failed.login IN PT1H", "DSL-DURATION-UNQUOTED", 28, "write 'PT1H'"),
    ("event.user.failed.login IN P7D", "DSL-DURATION-UNQUOTED", 28, "write 'P7D'"),
    ("event.user.failed.login IN 7", "DSL-DURATION-UNQUOTED", 28, "quoted ISO-8601"),
    ("event.user.failed.login IN 'PT1.5H'", "DSL-DURATION-INVALID", 28, "write 'PT1H30M'"),
    ("event.user.failed.login IN 'P'", "DSL-DURATION-INVALID", 28, None),
    ("event.user.failed.login IN 'PT'", "DSL-DURATION-INVALID", 28, None),
    ("event.user.failed.login IN '1 hour'", "DSL-DURATION-INVALID", 28, None),
    ("event.user.failed.login IN ['P1D']", "DSL-DURATION-INVALID", 28, None),
    ("event.c.received.refund WHERE customer_id == state.customer.id IN 'P30D'",
     "DSL-WHERE-ACCESSOR", 46, "write '{{customer.id}}'"),
    ("event.a.b.c WHERE k == tag.intent IN 'P1D'", "DSL-WHERE-ACCESSOR", 24, None),
    ("event.a.b.c WHERE amount >= 100 IN 'P1D'", "DSL-WHERE-OPERATOR", 26, "`==`"),
    ("event.a.b.c WHERE amount != 100 IN 'P1D'", "DSL-WHERE-OPERATOR", 26, None),
    ("event.a.b.c WHERE kind IN ['x'] IN 'P1D'", "DSL-WHERE-OPERATOR", 24, None),
    ("event.a.b.c WHERE ok == true IN 'P1D'", "DSL-WHERE-VALUE", 25, "'true'"),
    ("event.a.b.c WHERE user.id == 'x' IN 'P1D'", "DSL-WHERE-ATTRIBUTE", 19, "`id`"),
    ("event.a.b.c WHERE id == '{{customer}}' IN 'P1D'", "DSL-TEMPLATE-KEY", 25, None),
    ("event.a.b.c WHERE id == 'c-{{Customer.Id}}' IN 'P1D'", "DSL-TEMPLATE-KEY", 25, None),
    ("event.a.b.c WHERE id == {{customer.id}} IN 'P1D'", "DSL-TEMPLATE-UNQUOTED", 25,
     "write '{{customer.id}}'"),
    ("COUNT event.auth.user.failed.login IN 'PT15M' >= 5", "DSL-COUNT-PROJECT", 7,
     "event.user.failed.login"),
    ("COUNT event.user.failed.login IN 'PT15M'", "DSL-COUNT-COMPARISON", 1, ">= 5"),
    ("COUNT event.user.failed.login IN 'PT15M' AND state.a.b", "DSL-COUNT-COMPARISON", 1, None),
    ("COUNT event.user.failed.login IN 'PT15M' >= state.a.b", "DSL-COUNT-COMPARISON", 45, None),
    ("COUNT event.user.failed.login IN 'PT15M' >=", "DSL-COUNT-COMPARISON", 44, None),
    ("COUNT(event.user.failed.login IN 'PT15M' >= 5)", "DSL-COUNT-COMPARISON", 42, "`COUNT("),
    ("COUNT state.user.logins >= 5", "DSL-COUNT-EVENT", 7, None),
    ("EXISTS state.user.email", "DSL-PREFIX-EXISTS", 1, "write `state.user.email EXISTS`"),
    ("state.account.verified == True", "DSL-BOOLEAN-CASE", 27, "write `true`"),
    ("state.a.b IN [FALSE]", "DSL-BOOLEAN-CASE", 15, "write `false`"),
    ("state.a.b == 1 // note", "DSL-COMMENT", 16, "remove"),
    ("// note\nstate.a.b == 1", "DSL-COMMENT", 1, None),
    ("state.a.b == 'open", "DSL-UNTERMINATED-STRING", 14, None),
    ("state.a.b == 'line\nbreak'", "DSL-UNTERMINATED-STRING", 14, None),
    ("(state.a.b OR state.c.d", "DSL-UNBALANCED-PAREN", 1, "`)`"),
    ("state.a.b)", "DSL-UNBALANCED-PAREN", 10, "remove"),
    ("state.a.b IN ['x'", "DSL-UNBALANCED-PAREN", 14, "`]`"),
    ("", "DSL-EMPTY", 1, None),
    ("  \n\t ", "DSL-EMPTY", 1, None),
    ("state.a.b == 1 && state.c.d", "DSL-SYMBOL-OPERATOR", 16, "use `AND`"),
    ("state.a.b == 1 || state.c.d", "DSL-SYMBOL-OPERATOR", 16, "use `OR`"),
    ("!state.a.b", "DSL-SYMBOL-OPERATOR", 1, "use `NOT`"),
    ("state.a.b = 1", "DSL-SYMBOL-OPERATOR", 11, "use `==`"),
    ("state.a.b <> 1", "DSL-SYMBOL-OPERATOR", 11, "use `!=`"),
    ("state.a.b == 1 ; state.c.d", "DSL-UNEXPECTED-CHARACTER", 16, None),
    ("state.a.b == \u2018x\u2019", "DSL-UNEXPECTED-CHARACTER", 14, "straight single quotes"),
    ("state.a.b > 1.2.3", "DSL-NUMBER-INVALID", 13, None),
    ("state.a.b > 5m", "DSL-NUMBER-INVALID", 13, None),
    ("state.a.b < state.c.d < 3", "DSL-ARITH-BOOLEAN", 1, "AND"),
    ("state.a.b + (state.c.d > 0) > 1", "DSL-ARITH-BOOLEAN", 14, None),
    ("state.a.b + 1", "DSL-EXPECTED-CONDITION", 1, "compare"),
    ("true", "DSL-EXPECTED-CONDITION", 1, None),
    ("state.a.b AND 'x'", "DSL-EXPECTED-CONDITION", 15, None),
    ("state.a.b + 'x' > 1", "DSL-ARITH-OPERAND", 13, None),
    ("state.a.b * true > 1", "DSL-ARITH-OPERAND", 13, None),
    ("'premium' == state.user.tier", "DSL-COMPARE-ACCESSOR", 1,
     "write `state.user.tier == 'premium'`"),
    ("5 < state.a.b", "DSL-COMPARE-ACCESSOR", 1, "write `state.a.b > 5`"),
    ("1 + 2 > 3", "DSL-COMPARE-ACCESSOR", 1, None),
    ("state.a.b + 1 EXISTS", "DSL-ACCESSOR-REQUIRED", 1, None),
    ("'x' IN ['x']", "DSL-ACCESSOR-REQUIRED", 1, None),
    ("state.a.b == 1 CONTAINS 'x'", "DSL-ACCESSOR-REQUIRED", 1, None),
    ("state.user.role IN 'admin'", "DSL-IN-LIST", 20, "IN ['admin']"),
    ("state.user.role == ['admin']", "DSL-LIST-MISPLACED", 20, "IN"),
    ("state.user.role IN [state.team.role]", "DSL-LIST-ITEM", 21, None),
    ("state.user.role IN [['a']]", "DSL-LIST-ITEM", 21, None),
    ("state.user.email ENDS_WITH state.c.d", "DSL-STRING-OPERAND", 28, None),
    ("state.user.email ENDS_WITH 5", "DSL-STRING-OPERAND", 28, None),
    ("state.document.code MATCHES '^[A-Z{3}$'", "DSL-REGEX-INVALID", 29, None),
    ("-state.account.balance > 100", "DSL-UNARY-MINUS", 1, "state.a.b < -100"),
    ("user.tier == 'premium'", "DSL-UNKNOWN-NAME", 1, "`state.user.tier`"),
    ("premium", "DSL-UNKNOWN-NAME", 1, None),
    ("state.a.b ==", "DSL-UNEXPECTED-END", 13, None),
    ("NOT", "DSL-UNEXPECTED-END", 4, None),
    ("state.a.b AND", "DSL-UNEXPECTED-END", 14, None),
    ("state.a.b == 1 state.c.d == 2", "DSL-UNEXPECTED-TOKEN", 16, "`AND` or `OR`"),
    ("state.a.b NOT IN ['x']", "DSL-UNEXPECTED-TOKEN", 11, "NOT goes before"),
    ("state.a.b IN ['x',]", "DSL-UNEXPECTED-TOKEN", 19, "trailing comma"),
    ("AND state.a.b", "DSL-UNEXPECTED-TOKEN", 1, None),
    ("()", "DSL-UNEXPECTED-TOKEN", 2, None),
    ("state.a.b > " + "9" * 101, "DSL-NUMBER-TOO-LONG", 13, "shorter number"),
    ("state.a.b > 0." + "9" * 100, "DSL-NUMBER-TOO-LONG", 13, None),
    ("state.a.b MATCHES '(?:a{1000}){1000}'", "DSL-REGEX-TOO-COSTLY", 19, "under 100,000"),
    ("state.a.b == 'x\ud800'", "DSL-UNEXPECTED-CHARACTER", 16, "half of a pair"),
    ("event.user.failed.login IN 'P3650001D'", "DSL-DURATION-INVALID", 28, "'P365D'"),
]


@pytest.mark.parametrize("text, code, column, hint", DIAGNOSTICS,
                         ids=[f"{d[1]}:{d[0][:40]}" for d in DIAGNOSTICS])
def test_diagnostic(text: str, code: str, column: int, hint: str | None) -> None:
    diagnostic = error(text)
    assert diagnostic.code.id == code, diagnostic
    assert diagnostic.location(text)[1] == column, diagnostic
    if hint is not None:
        assert hint in diagnostic.hint, diagnostic.hint
    assert diagnostic.message


def test_every_catalog_code_is_exercised_by_the_table_above() -> None:
    exercised = {code for _, code, _, _ in DIAGNOSTICS} | {"DSL-LEGACY-TEMPLATE",
                                                           "DSL-NESTING-TOO-DEEP"}
    assert set(DSL_CODES) <= exercised, set(DSL_CODES) - exercised


def test_error_on_a_later_line_reports_that_line() -> None:
    text = "state.customer.id EXISTS\nAND state.Customer.tier == 'x'"
    diagnostic = error(text)
    assert diagnostic.code.id == "DSL-KEY-CASE"
    assert diagnostic.location(text) == (2, 11)


def test_the_first_error_wins() -> None:
    # Both a double quote and a lowercase `and`; the double quote comes first.
    assert error('state.a.b == "x" and state.c.d').code.id == "DSL-DOUBLE-QUOTE"
    assert error('state.a.b == 1 and state.c.d == "x"').code.id == "DSL-LOWERCASE-OPERATOR"


@pytest.mark.parametrize("code", sorted(DSL_CODES))
def test_catalog_example_yields_its_code_and_fixed_parses_clean(code: str) -> None:
    entry = DSL_CODES[code]
    result = parse_trigger(entry.example)
    assert [d.code.id for d in result.diagnostics][-1:] == [code], result.diagnostics
    fixed = parse_trigger(entry.fixed)
    assert fixed.ok and fixed.diagnostics == (), fixed.diagnostics


# ---- totality on hostile input -------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "(" * 10_000,
    "(" * 10_000 + "state.a.b" + ")" * 10_000,
    "NOT " * 10_000 + "state.a.b",
    " AND ".join(["state.a.b"] * 10_000),
    "state.a.b" + " + 1" * 10_000 + " > 0",
    "state.a.b > " + "(" * 10_000 + "1" + ")" * 10_000,
], ids=["open", "balanced", "not", "and-chain", "plus-chain", "arith-parens"])
def test_deep_nesting_is_a_diagnostic_not_a_recursion_error(text: str) -> None:
    assert error(text).code.id == "DSL-NESTING-TOO-DEEP"


def test_moderate_nesting_is_fine() -> None:
    assert parsed("(" * 40 + "state.a.b" + ")" * 40) == TA
    assert parsed(" AND ".join(["state.a.b"] * 150)) is not None


def test_render_windows_a_long_line_around_the_caret() -> None:
    from topo.audit.dsl import parse_trigger, render
    text = "state.a.b == 1 AND " * 300 + "state.a.b == "
    result = parse_trigger(text)
    rendered = render(text, result.diagnostics[0])
    excerpt, caret = rendered.split("\n")[1:3]
    assert len(excerpt) < 110 and excerpt.startswith("  …")
    assert caret.index("^") <= len(excerpt)
    assert excerpt[caret.index("^") - 1:].strip() == ""  # the caret sits just past the end


def test_render_short_line_unchanged() -> None:
    from topo.audit.dsl import parse_trigger, render
    text = 'state.user.tier == "premium"'
    rendered = render(text, parse_trigger(text).diagnostics[0])
    assert rendered.split("\n")[1] == "  " + text
    assert rendered.split("\n")[2] == "  " + " " * 19 + "^" * 9
