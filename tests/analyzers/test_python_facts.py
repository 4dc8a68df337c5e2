"""Python front-end: imports, definitions, decorators, assignments, returns and comments."""

from __future__ import annotations

import hashlib


from topo.analyzers.ir import DefinitionKind, Parameter, ValueKind
from topo.analyzers.model import Location
from tests.analyzers.ir_helpers import PATH, assignments, only_call, parse


def test_imports_with_aliases_and_relative_resolution_in_a_package() -> None:
    ir = parse('''
        import os.path
        import numpy as np
        from .refund import handle as run
        from .. import settings
        from ..tools.mail import *
    ''', path="app/agents/__init__.py", module="app.agents")
    assert [(i.module, i.name, i.alias) for i in ir.imports] == [
        ("os.path", None, "os.path"),
        ("numpy", None, "np"),
        ("app.agents.refund", "handle", "run"),
        ("app", "settings", "settings"),
        ("app.tools.mail", "*", "*"),
    ]
    assert ir.imports[2].location == Location("app/agents/__init__.py", 3, 1, 3, 34)
    assert all(i.scope == "<module>" for i in ir.imports)


def test_dotted_import_binds_its_top_package() -> None:
    ir = parse('''
        import google.cloud.storage
        google.cloud.storage.Client().bucket("b")
    ''')
    assert only_call(ir, "bucket").callee == "google.cloud.storage.Client.bucket"


def test_relative_import_beyond_the_top_package_is_an_unknown() -> None:
    ir = parse("from ... import x\n", path="app/a.py", module="app.a")
    assert ir.imports == ()
    assert [(u.reason, u.line) for u in ir.unknowns] == [
        ("relative import beyond the top-level package (...)", 1)]


def test_definitions_methods_nested_async_and_classes() -> None:
    ir = parse('''
        from app.base import BaseAgent

        class RefundAgent(BaseAgent, metaclass=Meta):
            async def handle(self, ticket: Ticket, /, limit: int = 5, *rest, force=False, **kw):
                def inner():
                    pass
                return inner
    ''')
    summary = [(d.qualname, d.name, d.kind, d.scope, d.is_async) for d in ir.definitions]
    assert summary == [
        ("RefundAgent", "RefundAgent", DefinitionKind.CLASS, "<module>", False),
        ("RefundAgent.handle", "handle", DefinitionKind.METHOD, "RefundAgent", True),
        ("RefundAgent.handle.inner", "inner", DefinitionKind.FUNCTION, "RefundAgent.handle",
         False),
    ]
    agent, handle, _ = ir.definitions
    assert agent.bases == ("app.base.BaseAgent",)
    assert agent.location == Location(PATH, 3, 1, 7, 21)
    assert [(p.name, p.annotation, p.kind) for p in handle.parameters] == [
        ("self", None, "positional"), ("ticket", "Ticket", "positional"),
        ("limit", "int", "positional"), ("rest", None, "var_positional"),
        ("force", None, "keyword"), ("kw", None, "var_keyword")]
    assert handle.parameters[2].default.literal == 5
    assert handle.parameters[4].default.literal is False
    assert handle.parameters[0] == Parameter("self")


def test_decorators_are_calls_that_name_what_they_decorate() -> None:
    ir = parse('''
        from agents import tool
        from app.registry import registry

        @tool
        @registry.tool(name="refund")
        def refund(charge):
            pass
    ''')
    [bare] = [c for c in ir.calls if c.bare_decorator]
    [called] = [c for c in ir.calls if not c.bare_decorator]
    assert (bare.callee, bare.decorates, bare.args, bare.location) == (
        "agents.tool", "refund", (), Location(PATH, 4, 2, 4, 6))
    assert (called.callee, called.decorates, called.bare_decorator) == (
        "app.registry.registry.tool", "refund", False)
    assert called.kwarg("name").literal == "refund"
    assert called.statement == Location(PATH, 5, 1, 5, 30)
    [definition] = ir.definitions
    assert definition.decorators == (bare.id, called.id)


def test_lambda_definitions() -> None:
    ir = parse('''
        handlers = {"refund": lambda t: refund_ticket(t)}
    ''')
    [definition] = ir.definitions
    assert (definition.qualname, definition.kind) == ("<lambda>@1:23", DefinitionKind.LAMBDA)
    assert only_call(ir, "refund_ticket").scope == "<lambda>@1:23"
    [assignment] = ir.assignments
    assert assignment.value.entry("refund").kind is ValueKind.LAMBDA
    assert assignment.value.entry("refund").ref == "<lambda>@1:23"


def test_assignment_kinds() -> None:
    ir = parse('''
        def f(client, rows, data):
            total: int = 0
            total += len(rows)
            a, (b, *rest) = data
            self_x = data["x"]
            if (match := client.find()):
                pass
            for key, row in rows.items():
                pass
            with client.session() as session:
                pass
            data["k"] = 1
    ''')
    total = assignments(ir, "total")
    assert [(a.value.literal, a.augmented) for a in total] == [(0, False), (None, True)]
    assert total[1].value.kind is ValueKind.CALL
    unpacked = [(a.target, a.value.ref, a.element) for a in ir.assignments
                if a.target in ("a", "b", "rest")]
    assert unpacked == [("a", "data", True), ("b", "data", True), ("rest", "data", True)]
    [walrus] = assignments(ir, "match")
    assert (walrus.value.kind, walrus.value.call) == (ValueKind.CALL, only_call(ir, "find").id)
    loop = [(a.target, a.element, a.value.text) for a in ir.assignments
            if a.target in ("key", "row")]
    assert loop == [("key", True, "rows.items()"), ("row", True, "rows.items()")]
    [session] = assignments(ir, "session")
    assert session.value.call == only_call(ir, "session").id
    assert session.location == Location(PATH, 10, 10, 10, 37)
    [subscript] = assignments(ir, 'data["k"]')
    assert subscript.value.literal == 1
    assert subscript.location == Location(PATH, 12, 5, 12, 18)


def test_returns_and_comments() -> None:
    ir = parse('''
        # topo: ignore[HIDDEN-AUTHORITY]
        def f(x):
            return x.value  # the verdict
    ''')
    [returned] = ir.returns
    assert (returned.value.ref, returned.scope) == ("x.value", "f")
    assert returned.location == Location(PATH, 3, 5, 3, 19)
    assert [(c.text, c.location) for c in ir.comments] == [
        (" topo: ignore[HIDDEN-AUTHORITY]", Location(PATH, 1, 1, 1, 33)),
        (" the verdict", Location(PATH, 3, 21, 3, 34)),
    ]


def test_file_level_fields() -> None:
    ir = parse("x = 1\ny = 2\n")
    assert (ir.path, ir.module, ir.lines) == (PATH, "app.agents.refund", 2)
    assert ir.sha256 == hashlib.sha256(b"x = 1\ny = 2\n").hexdigest()


def test_deletions_of_attributes_and_items() -> None:
    ir = parse("""
        SESSIONS = {}

        def revoke(user, key):
            del SESSIONS[user], SESSIONS["admin"]
            if key:
                del user.token
            local = 1
            del local
            del SESSIONS[lookup(key)]
    """)
    assert [(d.target, d.location.line, d.scope) for d in ir.deletions] == [
        ("SESSIONS[*]", 4, "revoke"), ('SESSIONS["admin"]', 4, "revoke"),
        ("user.token", 6, "revoke"), ("SESSIONS[*]", 9, "revoke")]
    assert [g.kind.value for g in ir.deletions[2].guards] == ["if"]
    assert only_call(ir, "lookup").scope == "revoke"   # a computed index still runs its call


def test_a_function_lists_the_names_its_body_binds() -> None:
    ir = parse('''
        response = None

        def download(url, *rest, **options):
            import json
            response = fetch(url)
            for item in rest:
                pass
            with open(url) as handle:
                pass
            def inner():
                nonlocal response
                response = 3
            return response

        def save():
            global response
            response = 1
            print(total)

        handler = lambda event, context: event
    ''')
    by_name = {d.qualname: d.locals for d in ir.definitions}
    assert by_name["download"] == ("handle", "inner", "item", "json", "options", "response",
                                   "rest", "url")
    assert by_name["download.inner"] == ()      # `nonlocal`: the enclosing function's name
    assert by_name["save"] == ()                # `global`: the module's name; `total` is read
    [lambda_] = [d for d in ir.definitions if d.name == "<lambda>"]
    assert lambda_.locals == ("context", "event")


def test_a_comprehension_binds_its_targets_to_elements_of_the_iterable() -> None:
    ir = parse('''
        def run_all(response, table):
            results = [run(call) for call in response.content if call.type == "tool_use"]
            pairs = {key: value for key, value in table.items()}
    ''')
    elements = [(a.target, a.value.text) for a in ir.assignments if a.element]
    assert elements == [("call", "response.content"), ("key", "table.items()"),
                        ("value", "table.items()")]
    assert all(a.scope == "run_all" for a in ir.assignments)
