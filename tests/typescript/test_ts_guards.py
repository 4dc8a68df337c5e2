"""TS front-end: the guards around calls, conditions and their comparisons."""

from __future__ import annotations

from topo.analyzers.ir import GuardKind
from tests.typescript.ts_helpers import call, guard_summary, parse_ts


def test_if_else_if_else() -> None:
    ir = parse_ts("""
        if (resp.confidence > 0.8) { refund(); } else if (x === 'a') other(); else { escalate(); }
    """)
    assert guard_summary(call(ir, "refund")) == [("if", True, "resp.confidence > 0.8")]
    assert guard_summary(call(ir, "other")) == [("if", False, "resp.confidence > 0.8"),
                                                ("if", True, "x === 'a'")]
    assert guard_summary(call(ir, "escalate")) == [("if", False, "resp.confidence > 0.8"),
                                                   ("if", False, "x === 'a'")]
    [comparison] = call(ir, "other").guards[1].condition.comparisons
    assert (comparison.left.ref, comparison.op, comparison.right.literal) == ("x", "==", "a")


def test_comparison_operators_are_spelt_as_in_python() -> None:
    ir = parse_ts("""
        if (a !== b && !ok && !(n >= 3) && 'k' in o && flag) { f(); }
    """)
    ops = [(c.left.text, c.op) for c in call(ir, "f").guards[0].condition.comparisons]
    assert ops == [("a", "!="), ("ok", "falsy"), ("n", "<"), ("'k'", "in"), ("flag", "truthy")]


def test_array_and_set_membership_is_in() -> None:
    """`ALLOWED.includes(x)` / `SEEN.has(x)` are Python's `x in ALLOWED`; a call with two
    arguments or a spread is not a membership test."""
    ir = parse_ts("""
        if (ALLOWED.includes(x) && !SEEN.has(y) && s.includes(a, 2) && XS.includes(...zs)) { f(); }
    """)
    found = [(c.left.text, c.op, c.right.ref if c.right else None)
             for c in call(ir, "f").guards[0].condition.comparisons]
    assert found == [("x", "in", "ALLOWED"), ("y", "not in", "SEEN"),
                     ("s.includes(a, 2)", "truthy", None), ("XS.includes(...zs)", "truthy", None)]


def test_early_exits_guard_the_rest_of_the_block() -> None:
    ir = parse_ts("""
        function f(d) {
          if (!d.selected) { return null; }
          if (d.blocked) throw new Error('no');
          for (const x of xs) {
            if (x.skip) continue;
            if (x.stop) { break; }
            act(x);
          }
          refund();
        }
    """)
    refund = call(ir, "refund")
    assert [(g.kind.value, g.polarity, g.exits) for g in refund.guards] == [
        ("early_exit", False, "return"), ("early_exit", False, "raise")]
    assert [g.exits for g in call(ir, "act").guards if g.kind is GuardKind.EARLY_EXIT] == [
        "return", "raise", "continue", "break"]


def test_ternary_and_boolean_operators() -> None:
    ir = parse_ts("const v = ok ? yes() : no(); ready && go(); failed || retry(); a ?? dflt();\n")
    assert guard_summary(call(ir, "yes")) == [("ternary", True, "ok")]
    assert guard_summary(call(ir, "no")) == [("ternary", False, "ok")]
    assert guard_summary(call(ir, "go")) == [("bool_op", True, "ready")]
    assert guard_summary(call(ir, "retry")) == [("bool_op", False, "failed")]
    assert guard_summary(call(ir, "dflt")) == [("bool_op", False, "a")]


def test_switch_cases_are_match_cases() -> None:
    ir = parse_ts("""
        switch (call.function.name) {
          case 'refund': refund(); break;
          case 'email':
          case 'sms': notify(); break;
          default: log();
        }
    """)
    refund = call(ir, "refund")
    assert guard_summary(refund) == [
        ("match_case", True, "switch call.function.name: case 'refund'")]
    [comparison] = refund.guards[0].condition.comparisons
    assert (comparison.left.ref, comparison.op, comparison.right.literal) == (
        "call.function.name", "==", "refund")
    assert [(g.polarity, g.condition.text) for g in call(ir, "log").guards] == [
        (False, "switch call.function.name: case 'refund'"),
        (False, "switch call.function.name: case 'email'"),
        (False, "switch call.function.name: case 'sms'"),
        (True, "switch call.function.name: default")]


def test_loops() -> None:
    ir = parse_ts("""
        for (const block of resp.content) { handle(block); }
        while (pending > 0) { step(); }
        for (let i = 0; i < n; i++) { tick(i); }
        do { poll(); } while (busy);
    """)
    assert guard_summary(call(ir, "handle")) == [("loop", True, "resp.content")]
    assert guard_summary(call(ir, "step")) == [("while", True, "pending > 0")]
    assert guard_summary(call(ir, "tick")) == [("while", True, "i < n")]
    assert guard_summary(call(ir, "poll")) == [("loop", True, "busy")]
    block = [a for a in ir.assignments if a.target == "block"][0]
    assert block.element and block.value.ref == "resp.content"


def test_try_catch_finally_with_try_calls() -> None:
    ir = parse_ts("""
        try {
          const d = await ami.decide({ decisionPoint: 'p' });
        } catch (error: unknown) {
          await fallback();
        } finally {
          close();
        }
    """)
    decide, fallback, close = call(ir, "decide"), call(ir, "fallback"), call(ir, "close")
    assert [g.kind for g in decide.guards] == [GuardKind.TRY]
    [handler] = fallback.guards
    assert (handler.kind, handler.handler, handler.try_calls) == (
        GuardKind.EXCEPT, "unknown", (decide.id,))
    assert [g.kind for g in close.guards] == [GuardKind.FINALLY]


def test_every_guarded_block_is_listed_even_empty_ones() -> None:
    ir = parse_ts("""
        try { decide(); } catch { }
    """)
    kinds = [block.guard.kind for block in ir.blocks]
    assert kinds == [GuardKind.TRY, GuardKind.EXCEPT]
    assert ir.blocks[1].guard.try_calls == (call(ir, "decide").id,)


def test_function_bodies_do_not_inherit_guards() -> None:
    ir = parse_ts("""
        if (x) { const f = () => inner(); outer(); }
    """)
    assert call(ir, "inner").guards == ()
    assert len(call(ir, "outer").guards) == 1


def test_catch_guards_record_how_the_handler_ends() -> None:
    swallow = parse_ts("try { save(); } catch (e) { log(e); }")
    rethrow = parse_ts("try { save(); } catch (e) { rollback(); throw e; }")
    assert [b.guard.exits for b in swallow.blocks if b.guard.kind is GuardKind.EXCEPT] == [None]
    assert [b.guard.exits for b in rethrow.blocks if b.guard.kind is GuardKind.EXCEPT] == \
        ["raise"]
