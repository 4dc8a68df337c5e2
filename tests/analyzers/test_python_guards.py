"""Python front-end: the guards around each call and the comparisons inside conditions."""

from __future__ import annotations

from topo.analyzers.ir import GuardKind, ValueKind
from topo.analyzers.model import Location
from tests.analyzers.ir_helpers import PATH, guard_summary, only_call, parse


def test_if_elif_else_negates_previous_conditions() -> None:
    ir = parse('''
        def route(a, b):
            if a > 1:
                first()
            elif b:
                second()
            else:
                third()
            after()
    ''')
    assert guard_summary(only_call(ir, "first")) == [("if", True, "a > 1")]
    assert guard_summary(only_call(ir, "second")) == [("if", False, "a > 1"), ("if", True, "b")]
    assert guard_summary(only_call(ir, "third")) == [("if", False, "a > 1"), ("if", False, "b")]
    assert only_call(ir, "after").guards == ()
    assert only_call(ir, "first").guards[0].location == Location(PATH, 2, 8, 2, 13)


def test_early_exits_guard_the_rest_of_the_block() -> None:
    ir = parse('''
        def handle(resp, items):
            if not resp.ok:
                log()
                return None
            if resp.score < 0.5:
                raise ValueError("low")
            for item in items:
                if item.skip:
                    continue
                process(item)
            act()
    ''')
    act = only_call(ir, "act")
    assert guard_summary(act) == [("early_exit", False, "not resp.ok"),
                                  ("early_exit", False, "resp.score < 0.5")]
    assert [guard.exits for guard in act.guards] == ["return", "raise"]
    process = only_call(ir, "process")
    assert guard_summary(process) == [("early_exit", False, "not resp.ok"),
                                      ("early_exit", False, "resp.score < 0.5"),
                                      ("loop", True, "items"),
                                      ("early_exit", False, "item.skip")]
    assert process.guards[-1].exits == "continue"
    # The exiting branch itself is guarded by its condition, not by its own exit.
    assert guard_summary(only_call(ir, "log")) == [("if", True, "not resp.ok")]


def test_exit_inside_a_nested_block_does_not_guard_the_outer_block() -> None:
    ir = parse('''
        def handle(a, b):
            if a:
                if b:
                    return
            act()
    ''')
    assert only_call(ir, "act").guards == ()


def test_try_except_finally_and_try_calls() -> None:
    ir = parse('''
        def decide(client):
            try:
                verdict = client.decide(point="refund")
                record(verdict)
            except (TimeoutError, ValueError) as error:
                fallback()
            except:
                other()
            finally:
                close()
    ''')
    decide = only_call(ir, "decide")
    record = only_call(ir, "record")
    assert [guard.kind for guard in decide.guards] == [GuardKind.TRY]
    assert decide.guards[0].location == Location(PATH, 2, 5, 2, 8)
    fallback = only_call(ir, "fallback").guards
    assert [(g.kind, g.handler, g.try_calls) for g in fallback] == [
        (GuardKind.EXCEPT, "TimeoutError, ValueError", (decide.id, record.id))]
    assert fallback[0].location == Location(PATH, 5, 5, 5, 37)
    assert [(g.kind, g.handler) for g in only_call(ir, "other").guards] == [
        (GuardKind.EXCEPT, "")]
    assert [g.kind for g in only_call(ir, "close").guards] == [GuardKind.FINALLY]


def test_ternary_and_boolean_operands() -> None:
    ir = parse('''
        def pick(ok, cached):
            value = fresh() if ok else stale()
            done = cached or reload()
            ok and send()
    ''')
    assert guard_summary(only_call(ir, "fresh")) == [("ternary", True, "ok")]
    assert guard_summary(only_call(ir, "stale")) == [("ternary", False, "ok")]
    assert guard_summary(only_call(ir, "reload")) == [("bool_op", False, "cached")]
    assert guard_summary(only_call(ir, "send")) == [("bool_op", True, "ok")]


def test_while_loop_and_comprehension_guards() -> None:
    ir = parse('''
        def drain(queue, rows):
            while queue.pending():
                handle(queue.pop())
            return [score(row) for row in rows if row.valid]
    ''')
    assert guard_summary(only_call(ir, "handle")) == [("while", True, "queue.pending()")]
    while_guard = only_call(ir, "handle").guards[0]
    assert while_guard.condition.calls == (only_call(ir, "pending").id,)
    assert guard_summary(only_call(ir, "score")) == [("loop", True, "rows"),
                                                     ("if", True, "row.valid")]


def test_for_loop_condition_reads_the_iterable() -> None:
    ir = parse('''
        def each(batch):
            for item in batch.items(limit=3):
                handle(item)
    ''')
    guard = only_call(ir, "handle").guards[0]
    assert guard.kind is GuardKind.LOOP and guard.polarity is True
    assert guard.condition.text == "batch.items(limit=3)"
    assert guard.condition.reads == ("batch",)
    assert guard.condition.calls == (only_call(ir, "items").id,)


def test_match_case_guards() -> None:
    ir = parse('''
        def route(output):
            match output["action"]:
                case "refund":
                    refund()
                case {"kind": "stop"} if output.ok:
                    stop()
                case _:
                    other()
    ''')
    refund = only_call(ir, "refund").guards
    assert [(g.kind, g.polarity) for g in refund] == [(GuardKind.MATCH_CASE, True)]
    comparison = refund[0].condition.comparisons[0]
    assert (comparison.left.ref, comparison.op, comparison.right.literal) == (
        'output["action"]', "==", "refund")
    stop = only_call(ir, "stop").guards
    assert [(g.kind, g.polarity) for g in stop] == [(GuardKind.MATCH_CASE, False),
                                                    (GuardKind.MATCH_CASE, True)]
    assert stop[1].condition.text == 'match output["action"]: case {"kind": "stop"} if output.ok'
    assert [(c.left.ref, c.op) for c in stop[1].condition.comparisons] == [
        ('output["action"]["kind"]', "=="), ("output.ok", "truthy")]
    assert [g.polarity for g in only_call(ir, "other").guards] == [False, False, True]


def test_comparisons_of_thresholds_membership_keys_and_identity() -> None:
    ir = parse('''
        def gate(resp, text, output, x):
            if resp.confidence > 0.8 and "approve" in text:
                a()
            if output["action"] == "refund" or x is None:
                b()
            if not x:
                c()
            if not (x == 1):
                d()
    ''')
    first = only_call(ir, "a").guards[0].condition
    assert [(c.left.ref or c.left.literal, c.op, c.right.literal if c.right.literal is not None
             else c.right.ref) for c in first.comparisons] == [
        ("resp.confidence", ">", 0.8), ("approve", "in", "text")]
    assert first.reads == ("resp.confidence", "text")
    assert first.comparisons[0].location == Location(PATH, 2, 8, 2, 29)
    second = only_call(ir, "b").guards[0].condition.comparisons
    assert [(c.left.ref, c.op) for c in second] == [('output["action"]', "=="), ("x", "is")]
    assert second[1].right.kind is ValueKind.NONE
    falsy = only_call(ir, "c").guards[0].condition.comparisons
    assert [(c.left.ref, c.op, c.right) for c in falsy] == [("x", "falsy", None)]
    negated = only_call(ir, "d").guards[0].condition.comparisons
    assert [(c.left.ref, c.op, c.right.literal) for c in negated] == [("x", "!=", 1)]


def test_bare_truthiness_of_a_call_lists_the_call() -> None:
    ir = parse('''
        def gate(client):
            if client.approved(ticket="t1"):
                act()
    ''')
    condition = only_call(ir, "act").guards[0].condition
    approved = only_call(ir, "approved")
    assert condition.calls == (approved.id,)
    [truthy] = condition.comparisons
    assert (truthy.op, truthy.left.kind, truthy.left.call) == ("truthy", ValueKind.CALL,
                                                               approved.id)


def test_function_body_does_not_inherit_guards_but_class_body_does() -> None:
    ir = parse('''
        if FLAG:
            def later():
                inside()

            class Config:
                value = load()
    ''')
    assert only_call(ir, "inside").guards == ()
    assert guard_summary(only_call(ir, "load")) == [("if", True, "FLAG")]


def test_guards_on_assignments_and_returns() -> None:
    ir = parse('''
        def f(x):
            if x:
                y = 1
                return y
            return None
    ''')
    [assignment] = ir.assignments
    assert [g.kind for g in assignment.guards] == [GuardKind.IF]
    assert [[g.kind for g in r.guards] for r in ir.returns] == [
        [GuardKind.IF], [GuardKind.EARLY_EXIT]]


def test_guarded_blocks_are_listed_even_without_facts() -> None:
    ir = parse('''
        def decide(client):
            try:
                client.decide(point="refund")
            except TimeoutError:
                pass
            if client.ready:
                pass
            elif client.waiting:
                pass
            else:
                pass
    ''')
    decide = only_call(ir, "decide")
    summary = [(b.guard.kind, b.guard.polarity, b.scope, len(b.guards)) for b in ir.blocks]
    assert summary == [
        (GuardKind.TRY, True, "decide", 1),
        (GuardKind.EXCEPT, True, "decide", 1),
        (GuardKind.IF, True, "decide", 1),
        (GuardKind.IF, True, "decide", 2),
        (GuardKind.IF, False, "decide", 2),
    ]
    handler = ir.blocks[1].guard
    assert (handler.handler, handler.try_calls, handler.location) == (
        "TimeoutError", (decide.id,), Location(PATH, 4, 5, 4, 24))
    assert [g.condition.text for g in ir.blocks[4].guards] == ["client.ready", "client.waiting"]
    assert ir.blocks[4].guards[-1] is ir.blocks[4].guard


def test_except_guards_record_how_the_handler_ends() -> None:
    ir = parse('''
        def save(session):
            try:
                session.add(row)
            except ValueError:
                log()
            except KeyError:
                rollback()
                raise
    ''')
    handlers = [block.guard for block in ir.blocks if block.guard.kind is GuardKind.EXCEPT]
    assert [(g.handler, g.exits) for g in handlers] == [("ValueError", None),
                                                        ("KeyError", "raise")]
