"""Evaluator laws (STYLE §5), checked on generated (trigger, context) pairs.

Triggers come from the shared `audit.triggers.strategies.triggers()` (valid ASTs only) and from a
small local strategy of edge ASTs the parser would reject or that the shared one rarely builds
(string literals in arithmetic, invalid and pathological MATCHES patterns, literal-only
comparisons): the evaluator must be total on both. Contexts come from `contexts(ast)`.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from hypothesis import assume, find, given, settings, strategies as st

from topo.audit.dsl import EvalContext, EvaluationError, context_to_json, evaluate, load_context
from topo.audit.dsl.ast import (And, Arith, BoolLit, Compare, Count, Duration, EventQuery, EventRef,
                                Exists, InList, ListLit, Not, NumberLit, Or, StateRef, StringLit,
                                StrOp, TagRef, Truthy, WhereFilter)
from topo.audit.dsl.context import normalize_text
from topo.audit.triggers.strategies import (CONTEXT_NOW, contexts, predicates,
                                            triggers as shared_triggers)

SETTINGS = settings(max_examples=200, deadline=None)

# ---- local edge ASTs ---------------------------------------------------------------------

refs = st.one_of(st.sampled_from(["user.tier", "user.verified", "order.total", "a.b"])
                 .map(StateRef), st.sampled_from(["intent", "channel"]).map(TagRef))
strings = st.sampled_from(["gold", "Gold", "refund", "10", "", "false", "unknown", "abc"])
numbers = st.one_of(st.integers(-3, 1000), st.decimals(-10, 10, places=1, allow_nan=False,
                                                       allow_infinity=False))
literals = st.one_of(strings.map(StringLit), numbers.map(NumberLit), st.booleans().map(BoolLit))
arith = st.recursive(st.one_of(refs, numbers.map(NumberLit), strings.map(StringLit)),
                     lambda inner: st.builds(Arith, st.sampled_from("+-*/"), inner, inner),
                     max_leaves=4)
compare_ops = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
patterns = st.sampled_from([r"^[A-Z]{3}-\d{4}$", "ol", "^g", "(a|aa)+$", "[", r"\d+"])
durations = st.sampled_from([("PT0.5S", "0.5"), ("PT1.5S", "1.5"), ("PT15M", "900"),
                             ("P30D", "2592000")]).map(lambda d: Duration(d[0], Decimal(d[1])))
where = st.builds(WhereFilter, st.sampled_from(["customer_id", "tool_name"]), st.one_of(
    st.sampled_from(["{{customer.id}}", "{{state.customer.id}}", "refund", "c-{{a.b}}"])
    .map(StringLit), st.integers(0, 3).map(NumberLit)))
queries = st.builds(EventQuery, st.builds(EventRef, st.just("user"), st.just("failed"),
                                          st.sampled_from(["login", "logout"]),
                                          st.sampled_from([None, "other"])),
                    st.lists(where, max_size=2).map(tuple), durations)

# Predicates that are false when an atom they read is absent (events are not: COUNT == 0).
positive_predicates = st.one_of(
    st.builds(Compare, compare_ops, refs, st.one_of(literals, refs)),
    st.builds(Compare, compare_ops, arith, st.one_of(arith, literals)),
    st.builds(Exists, refs),
    st.builds(Truthy, refs),
    st.builds(InList, refs, st.lists(literals, max_size=3).map(lambda i: ListLit(tuple(i)))),
    st.builds(StrOp, st.sampled_from(["STARTS_WITH", "ENDS_WITH", "CONTAINS", "MATCHES"]),
              refs, patterns.map(StringLit)),
)
atoms = st.one_of(positive_predicates, queries,
                  st.builds(Count, queries, compare_ops, st.integers(0, 4).map(NumberLit)))
edge_triggers = st.recursive(atoms, lambda inner: st.one_of(
    st.builds(Not, inner), st.builds(And, inner, inner), st.builds(Or, inner, inner)),
    max_leaves=6)
triggers = st.one_of(shared_triggers(max_leaves=6), edge_triggers)
any_positive_predicates = st.one_of(
    positive_predicates, predicates().filter(lambda p: not isinstance(p, (EventQuery, Count))))


def _reads(node) -> set[StateRef | TagRef]:
    match node:
        case StateRef() | TagRef():
            return {node}
        case Arith(left=left, right=right) | Compare(left=left, right=right):
            return _reads(left) | _reads(right)
        case Exists(ref=ref) | Truthy(ref=ref) | InList(ref=ref) | StrOp(ref=ref):
            return {ref}
        case _:
            return set()


# ---- laws ----------------------------------------------------------------------------------

@SETTINGS
@given(st.data(), triggers)
def test_evaluator_is_total(data, trigger):
    """Every (trigger, context) gives a bool or an EvaluationError, nothing else."""
    context = data.draw(contexts(trigger))
    try:
        result = evaluate(trigger, context, match_timeout=0.05)
    except EvaluationError as error:
        assert error.message and error.span is not None
    else:
        assert isinstance(result, bool)


@SETTINGS
@given(st.data(), triggers)
def test_not_flips_the_result(data, trigger):
    context = data.draw(contexts(trigger))
    try:
        result = evaluate(trigger, context, match_timeout=0.05)
    except EvaluationError:
        return
    assert evaluate(Not(trigger), context, match_timeout=0.05) is (not result)


@SETTINGS
@given(st.data(), any_positive_predicates, st.booleans())
def test_positive_predicate_on_an_absent_atom_is_false(data, predicate, as_null):
    """A missing (or null) atom makes a positive predicate false, `!=` included, never an
    error; EXISTS too. `NOT` of it is therefore true."""
    assume(_reads(predicate))  # a comparison of literals reads nothing
    context = data.draw(contexts(predicate))
    absent = data.draw(st.sampled_from(sorted(_reads(predicate), key=repr)))
    state, tags = dict(context.state), dict(context.tags)
    if isinstance(absent, StateRef):
        state.pop(absent.key, None)
        if as_null:
            state[absent.key] = None
    else:
        kind = normalize_text(absent.kind)
        tags = {k: v for k, v in tags.items() if normalize_text(k) != kind}
        if as_null:
            tags[absent.kind] = None
    context = EvalContext(state, tags, context.events, context.now, context.project)
    assert evaluate(predicate, context, match_timeout=0.05) is False
    assert evaluate(Not(predicate), context, match_timeout=0.05) is True


@SETTINGS
@given(st.data(), queries, st.sampled_from(["==", "<=", "<"]))
def test_count_zero_holds_on_empty_history(data, query, op):
    context = data.draw(contexts(query))
    context = EvalContext(context.state, context.tags, (), context.now)
    assert evaluate(Count(query, op, NumberLit(0 if op != "<" else 1)), context) is True
    assert evaluate(query, context) is False


@SETTINGS
@given(st.data(), triggers)
def test_context_json_round_trip_preserves_the_result(data, trigger):
    """A witness printed with context_to_json and read back evaluates the same way."""
    context = data.draw(contexts(trigger))
    reread = load_context(context_to_json(context), now=context.now, project=context.project)
    try:
        expected = evaluate(trigger, context, match_timeout=0.05)
    except EvaluationError:
        return
    try:
        assert evaluate(trigger, reread, match_timeout=0.05) is expected
    except EvaluationError:
        raise AssertionError("the re-read context raised where the original did not")


# ---- the contexts strategy concentrates on what a trigger reads ----------------------------

FOCUS_CASES = [
    "state.order.total >= 1000",
    "state.user.role IN ['admin', 'owner'] AND NOT state.user.banned",
    "tag.intent == 'refund_request'",
    r"state.document.code MATCHES '^[A-Z]{3}-\d{4}$'",
    "state.user.email ENDS_WITH '@company.com'",
    "state.request.cost + state.budget.spent <= state.budget.limit",
    "event.customer.received.refund WHERE customer_id == '{{customer.id}}' IN 'P30D'",
    "event.billing.invoice.sent.email IN 'PT1H'",
    "COUNT event.user.failed.login WHERE attempt == 2 IN 'PT15M' >= 3",
]


def _parse(text: str):
    from topo.audit.dsl import parse_trigger
    result = parse_trigger(text)
    assert result.ast is not None, result.diagnostics
    return result.ast


def _outcome(trigger, context) -> bool | None:
    try:
        return evaluate(trigger, context)
    except EvaluationError:
        return None


@pytest.mark.parametrize("text", FOCUS_CASES)
@pytest.mark.parametrize("outcome", [True, False])
def test_contexts_reach_both_outcomes(text, outcome):
    trigger = _parse(text)
    found = find(contexts(trigger), lambda c: _outcome(trigger, c) is outcome,
                 settings=settings(max_examples=2000, database=None))
    assert evaluate(trigger, found) is outcome


def test_contexts_offer_absent_null_and_trap_values():
    trigger = _parse("state.account.verified")
    for wanted in ("absent", None, "unknown", "No", -1):
        def has(c, wanted=wanted):
            if wanted == "absent":
                return "account.verified" not in c.state
            value = c.state.get("account.verified", "absent")
            return type(value) is type(wanted) and value == wanted
        assert has(find(contexts(trigger), has, settings=settings(database=None)))


def test_contexts_put_an_event_exactly_on_the_window_boundary():
    trigger = _parse("event.user.failed.login IN 'PT1.5S'")
    boundary = CONTEXT_NOW - timedelta(seconds=1.5)
    found = find(contexts(trigger), lambda c: any(e.ts == boundary for e in c.events),
                 settings=settings(database=None))
    assert evaluate(trigger, found) is True
