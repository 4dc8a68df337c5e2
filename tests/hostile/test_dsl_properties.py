"""Hypothesis: `check`/`fmt`/`deps`/`eval` never raise on any trigger text and context, even
with the issue #16 fragments (huge numbers, lone surrogates, huge durations, regex bombs) in
the alphabet. The same library functions the `topo trigger` commands call."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from topo.audit.dsl import (EvalContext, EvaluationError, dependencies, evaluate, format_trigger,
                            parse_trigger, render)

PROPERTY = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)

_HOSTILE = ["9" * 5000, "0." + "9" * 200, "9" * 101, "\ud800", "\udcff", "'x\ud800'",
            "'P999999999999D'", "'P3650001D'", "'P" + "9" * 16 + "Y'", "'(?:a{65535}){65535}'",
            "'(?:(?:a{50}){50}){50}'", "'(a+)+$'", "'[a-'", "'a{4294967296}'"]
_PIECES = ["state.user.code", "state.order.total", "tag.intent", "event.user.failed.login",
           "COUNT", "IN", "MATCHES", "WHERE", "user_id", "==", ">", ">=", "AND", "OR", "NOT",
           "EXISTS", "(", ")", "[", "]", ",", "+", "*", "-", "'PT1H'", "'x'", "1", "1.5",
           "true", "'{{user.id}}'"]
triggers = st.lists(st.sampled_from(_PIECES + _HOSTILE), min_size=1, max_size=9).map(" ".join)
values = st.one_of(st.integers(-10**6, 10**6), st.sampled_from([10**120, -(10**99)]),
                   st.text(max_size=8), st.sampled_from(["a" * 10, "\ud800", "9" * 200]),
                   st.booleans(), st.none())
contexts = st.builds(
    lambda code, total, intent: EvalContext(
        state={"user.code": code, "order.total": total}, tags={"intent": intent}, events=(),
        now=NOW),
    values, values, st.sampled_from(["refund", "\ud800", ""]))


@PROPERTY
@given(triggers, contexts)
@example("state.order.total > " + "9" * 5000, None)
@example("state.user.code MATCHES '(?:a{65535}){65535}'", None)
@example("event.user.failed.login IN 'P999999999999D'", None)
@example("state.user.code == '\ud800'", None)
def test_check_fmt_deps_eval_never_raise(text: str, context: EvalContext | None) -> None:
    result = parse_trigger(text)                       # trigger check
    for diagnostic in result.diagnostics:
        render(text, diagnostic).encode("utf-8")       # what check prints is UTF-8 text
    if result.ast is None:
        assert result.errors
        return
    format_trigger(result.ast).encode("utf-8")         # trigger fmt
    dependencies(result.ast)                           # trigger deps
    if context is None:
        context = EvalContext(state={}, tags={}, events=(), now=NOW)
    try:
        evaluate(result.ast, context, match_timeout=0.05)   # trigger eval
    except EvaluationError:
        pass                                           # exit 3, a documented outcome
