"""TS front-end: definitions, parameters, assignments and destructuring, returns, exports,
comments."""

from __future__ import annotations

from topo.analyzers.ir import DefinitionKind, Export, ValueKind
from tests.typescript.ts_helpers import parse_ts

SOURCE = """
// Tools the model may call.
import { tool } from 'ai';

export async function handler(req: Request, { user = 'x' }: Opts, ...rest: string[]) {}
const arrow = async (a: number, b = 2) => a + b;
const named = function inner() {};
export const sendEmail = tool({
  description: 'send',
  execute: async ({ to, body }) => { mail(to, body); },
});
const api = { list() { return 1; }, remove: (id) => drop(id) };
class Agent {
  run() {}
  handle = async (x) => x;
}
/* block
   comment */
export default handler;
"""


def _definitions(ir) -> dict[str, tuple[str, tuple[str, ...], bool]]:
    return {d.qualname: (d.kind.value, tuple(f"{p.name}:{p.kind}" for p in d.parameters),
                         d.exported) for d in ir.definitions}


def test_definitions_of_every_function_form() -> None:
    found = _definitions(parse_ts(SOURCE))
    assert found["handler"] == ("function", ("req:positional", "{user}:positional",
                                             "user:keyword", "rest:var_positional"), True)
    assert found["arrow"] == ("function", ("a:positional", "b:positional"), False)
    assert found["named"][0] == "function"
    assert found["sendEmail.execute"] == ("function", ("{to,body}:positional", "to:keyword",
                                                       "body:keyword"), False)
    assert found["api.list"][0] == "function" and found["api.remove"][0] == "function"
    assert found["Agent"][0] == "class"
    assert found["Agent.run"][0] == found["Agent.handle"][0] == "method"


def test_parameter_annotations_and_defaults() -> None:
    ir = parse_ts(SOURCE)
    handler = next(d for d in ir.definitions if d.qualname == "handler")
    assert handler.parameters[0].annotation == "Request"
    assert handler.is_async
    arrow = next(d for d in ir.definitions if d.qualname == "arrow")
    assert arrow.parameters[1].default.literal == 2


def test_destructured_parameters_unpack_into_element_assignments() -> None:
    ir = parse_ts(SOURCE)
    unpacked = [(a.target, a.value.ref, a.element) for a in ir.assignments
                if a.scope == "sendEmail.execute"]
    assert unpacked == [("to", "{to,body}", True), ("body", "{to,body}", True)]


def test_destructuring_assignments_are_elements() -> None:
    ir = parse_ts("""
        const { a, b: c, ...rest } = payload;
        const [first, , third] = items;
        let x = 1;
        x += 2;
        ({ d } = other);
    """)
    found = [(a.target, a.value.text, a.element, a.augmented) for a in ir.assignments]
    assert found == [("a", "payload", True, False), ("c", "payload", True, False),
                     ("rest", "payload", True, False), ("first", "items", True, False),
                     ("third", "items", True, False), ("x", "1", False, False),
                     ("x", "2", False, True), ("d", "other", True, False)]


def test_tests_computed_into_returns_and_assignments_carry_a_condition() -> None:
    ir = parse_ts("""
        function allowed(r) { return r.score >= 0.8; }
        const big = amount > LIMIT;
        const name = user.name;
    """)
    [returned] = ir.returns
    assert [(c.left.text, c.op, c.right.literal) for c in returned.condition.comparisons] == [
        ("r.score", ">=", 0.8)]
    conditions = {a.target: a.condition for a in ir.assignments}
    assert conditions["big"].text == "amount > LIMIT" and conditions["name"] is None


def test_exports_named_default_and_commonjs() -> None:
    ir = parse_ts("""
        function send() {}
        function helper() {}
        export { send as deliver, helper };
        module.exports = { notify: send };
        exports.run = function () {};
    """)
    assert [(e.name, e.source_module, e.source_name) for e in ir.exports] == [
        ("deliver", "src/app/agent", "send"), ("notify", "src/app/agent", "send"),
        ("run", "src/app/agent", "exports.run")]
    assert {d.qualname: d.exported for d in ir.definitions} == {
        "send": True, "helper": True, "exports.run": False}
    ir = parse_ts(SOURCE)
    assert Export("default", "src/app/agent", "handler", ir.exports[-1].location) in ir.exports


def test_anonymous_default_export_is_named_default() -> None:
    ir = parse_ts("export default async function (req) { go(req); }\n")
    assert [(d.qualname, d.exported) for d in ir.definitions] == [("default", True)]
    assert ir.calls[0].scope == "default"


def test_comments_without_markers() -> None:
    ir = parse_ts(SOURCE)
    assert [c.text for c in ir.comments] == [" Tools the model may call.",
                                             " block\n   comment "]
    assert ir.comments[0].location.line == 1


def test_object_methods_are_lambda_values_naming_their_definition() -> None:
    ir = parse_ts(SOURCE)
    api = next(a for a in ir.assignments if a.target == "api")
    assert [(key, value.kind, value.ref) for key, value in api.value.entries] == [
        ("list", ValueKind.LAMBDA, "api.list"), ("remove", ValueKind.LAMBDA, "api.remove")]
    anonymous = parse_ts("register(async (x) => x);\n")
    assert anonymous.definitions[0].kind is DefinitionKind.LAMBDA
    assert anonymous.definitions[0].qualname == "<lambda>@1:10"


def test_delete_expressions_are_deletions() -> None:
    ir = parse_ts("""
        const sessions: Record<string, string> = {};
        export function revoke(id: string, ctx: { context: { user?: string } }) {
          delete sessions[id];
          delete ctx.context.user;
          delete (sessions as any)['x'];
          const y = typeof id;
        }
    """)
    assert [(d.target, d.location.line, d.scope) for d in ir.deletions] == [
        ("sessions[*]", 3, "revoke"), ("ctx.context.user", 4, "revoke"),
        ('sessions["x"]', 5, "revoke")]


def test_a_function_lists_the_names_it_declares_not_those_it_assigns() -> None:
    ir = parse_ts("""
        let response = null;
        async function download(url: string, { folder }: Opts) {
          const response = await fetch(url);
          let count;
          count = 1;
          for (const item of []) {}
          try {} catch (error) {}
          function helper() {}
        }
        function save() {
          response = 1;
        }
    """)
    by_name = {d.qualname: d.locals for d in ir.definitions}
    assert by_name["download"] == ("count", "error", "folder", "helper", "item", "response",
                                   "url")
    assert by_name["save"] == ()      # an assignment to the module's variable binds nothing
