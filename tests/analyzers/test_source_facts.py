"""Call graph, label propagation and derived sites on small multi-file programs."""

from __future__ import annotations

import textwrap

from topo.analyzers.flow.facts import source_facts
from topo.analyzers.packs import factories
from topo.analyzers.python.frontend import parse_python
from topo.analyzers.model import EdgeKind, SiteKind

FACTORIES = factories()   # the shipped packs' factories, for the Python front-end


def facts(app: str | None = None, **paths: str):
    """Parse sources given by path (`{"pkg/__init__.py": ...}`), or one module `app.py`."""
    sources = dict(paths.get("files", {})) if "files" in paths else {}
    if app is not None:
        sources["app.py"] = app
    files = [parse_python(path, textwrap.dedent(text), _module(path), strict=True,
                          factories=FACTORIES)
             for path, text in sources.items()]
    return source_facts(files)


def _module(path: str) -> str:
    module = path.removesuffix(".py").replace("/", ".")
    return module.removesuffix(".__init__")


def kinds(result, kind: SiteKind) -> list:
    return [s for s in result.sites if s.kind is kind]


def edges(result, kind: EdgeKind) -> set[tuple[str, str]]:
    return {pair for e in result.edges if e.kind is kind for pair in e.pairs()}


def test_reexported_function_resolves_across_files() -> None:
    result = facts(files={
        "pkg/__init__.py": "from pkg.impl import work\n",
        "pkg/impl.py": "def work():\n    return 1\n",
        "app.py": "from pkg import work\n\ndef main():\n    work()\n"})
    assert ("function:app.main", "function:pkg.impl.work") in edges(result, EdgeKind.CALLS)


def test_function_reexported_under_its_module_name_resolves_once() -> None:
    # `from .tool import tool` in the package: `pkg.tool` is the function, and the name it
    # leads to, `pkg.tool.tool`, is the module's function, not another re-export hop.
    result = facts(files={
        "pkg/__init__.py": "from pkg.tool import tool\n",
        "pkg/tool.py": "def tool():\n    return 1\n",
        "app.py": "from pkg import tool\n\ndef main():\n    tool()\n"})
    assert ("function:app.main", "function:pkg.tool.tool") in edges(result, EdgeKind.CALLS)
    assert [c.callee for f in result.files for c in f.calls if c.name == "tool"] == \
        ["pkg.tool.tool"]


def test_calling_a_class_reaches_its_init() -> None:
    result = facts(app="""
        class Agent:
            def __init__(self):
                pass
        def main():
            Agent()
        """)
    assert ("function:app.main", "function:app.Agent.__init__") in edges(result, EdgeKind.CALLS)


def test_unresolved_library_calls_are_recorded_not_guessed() -> None:
    result = facts(app="import somelib\n\ndef main():\n    somelib.run()\n")
    assert result.graph.edges == ()
    assert result.graph.unresolved == ("app.py:4:5",)


def test_model_output_flows_through_return_parameter_and_library_calls() -> None:
    result = facts(app="""
        import json
        import stripe
        from openai import OpenAI
        client = OpenAI()
        def ask(text):
            r = client.chat.completions.create(model="m", messages=[])
            return json.loads(r.choices[0].message.content)
        def act(plan):
            score = float(plan.get("score"))
            if score >= 0.5:
                stripe.Refund.create(charge=plan["charge"])
        def main(text):
            act(ask(text))
        """)
    [threshold] = kinds(result, SiteKind.THRESHOLD)
    assert threshold.attr("op") == ">=" and threshold.attr("value") == 0.5
    [inference] = kinds(result, SiteKind.INFERENCE)
    assert threshold.attr("origins") == (inference.id,)
    [executor] = kinds(result, SiteKind.EXECUTOR)
    assert (threshold.id, executor.id) in edges(result, EdgeKind.AUTHORITY)
    assert (inference.id, executor.id) in edges(result, EdgeKind.INFERENCE)


def test_decision_result_is_not_model_derived() -> None:
    # The decision call consumes a model-derived atom; its selection is still Memrail's.
    result = facts(app="""
        import stripe
        from memrail import AMIClient
        from memrail.atoms import tag
        from openai import OpenAI
        llm = OpenAI()
        ami = AMIClient()
        def main(text):
            label = llm.chat.completions.create(model="m", messages=[]).choices[0].message.content
            decision = ami.decide(decision_point="refund", context=[tag("intent", label)])
            if decision.selected:
                stripe.Refund.create(charge="ch_1")
        """)
    assert kinds(result, SiteKind.MODEL_BRANCH) == []
    [decision] = kinds(result, SiteKind.DECISION_CALL)
    [executor] = kinds(result, SiteKind.EXECUTOR)
    authority = [e for e in result.edges if e.kind is EdgeKind.AUTHORITY]
    assert [(e.source, e.target, dict(e.attrs)) for e in authority] == \
        [(decision.id, executor.id, {"enforced": True})]


def test_framework_tool_parameters_are_model_filled_but_memrail_tools_are_not() -> None:
    result = facts(app="""
        import stripe
        from agents import function_tool
        from memrail.tools import ToolRegistry
        registry = ToolRegistry()
        @function_tool
        def refund(charge_id: str) -> str:
            stripe.Refund.create(charge=charge_id)
        @registry.tool(name="refund_payment")
        async def refund_payment(args: dict) -> dict:
            stripe.Refund.create(charge=args["charge_id"])
        """)
    inference_targets = {t for _, t in edges(result, EdgeKind.INFERENCE)}
    by_symbol = {s.symbol: s.id for s in kinds(result, SiteKind.EXECUTOR)}
    assert by_symbol["app.refund"] in inference_targets
    assert by_symbol["app.refund_payment"] not in inference_targets


def test_atoms_reach_the_decision_through_a_variable_and_append() -> None:
    result = facts(app="""
        from memrail import AMIClient
        from memrail.atoms import state
        def main(user):
            atoms = [state("user.id", user.id)]
            if user.vip:
                atoms.append(state("user.vip", True))
            AMIClient().decide(decision_point="p", context=atoms)
        """)
    atoms = {s.attr("key"): s for s in kinds(result, SiteKind.ATOM)}
    [decision] = kinds(result, SiteKind.DECISION_CALL)
    assert edges(result, EdgeKind.OBSERVATION) == {(a.id, decision.id) for a in atoms.values()}
    assert atoms["user.vip"].attr("conditional") is True
    assert atoms["user.vip"].attr("condition") == "user.vip"
    assert atoms["user.id"].attr("conditional") is None


def test_fallback_only_around_control_calls() -> None:
    result = facts(app="""
        from memrail import AMIClient
        import requests
        def main():
            try:
                AMIClient().decide(decision_point="p", context=[])
            except TimeoutError:
                pass
            try:
                requests.get("https://x")
            except Exception:
                pass
        """)
    [fallback] = kinds(result, SiteKind.FALLBACK)
    assert fallback.location.line == 7 and fallback.attr("handler") == "TimeoutError"


def test_source_facts_are_deterministic() -> None:
    source = {"app": "from openai import OpenAI\nc = OpenAI()\n"
                     "def f():\n    r = c.responses.create(model='m', input='x')\n"
                     "    if 'yes' in r.output_text:\n        return 1\n"}
    first, second = facts(**source), facts(**source)
    assert first.sites == second.sites and first.edges == second.edges
    [branch] = kinds(first, SiteKind.MODEL_BRANCH)
    assert branch.attr("op") == "in" and branch.attr("value") == "yes"


def test_new_reaches_a_typescript_constructor() -> None:
    from topo.analyzers.typescript import parse_typescript
    source = ("class Mailer {\n  constructor(host: string) { this.host = host; }\n}\n"
              "export function main() {\n  return new Mailer('smtp');\n}\n")
    result = source_facts([parse_typescript("src/app.ts", source, "src/app", strict=True)])
    assert ("function:src/app.main", "function:src/app.Mailer.constructor") in \
        edges(result, EdgeKind.CALLS)


def test_keyword_arguments_reach_a_var_keyword_parameter() -> None:
    """`def refund(**kwargs)` called with `amount=<model output>`: `kwargs` carries it."""
    result = facts("""
        import stripe
        from openai import OpenAI
        client = OpenAI()
        def refund(**kwargs):
            stripe.Refund.create(amount=kwargs["amount"])
        def plain(**kwargs):
            stripe.Refund.create(amount=kwargs["amount"])
        def run():
            answer = client.responses.create(model="m", input="x").output_text
            refund(amount=answer)
            plain(amount=100)
    """)
    executors = {s.location.line: s.id for s in kinds(result, SiteKind.EXECUTOR)}
    fed = {target for _, target in edges(result, EdgeKind.INFERENCE)}
    assert executors[6] in fed and executors[8] not in fed


def test_a_helpers_result_carries_only_its_own_callers_arguments() -> None:
    """Summaries: `clean(answer)` is model-derived, `clean("fixed")` is not, though both call
    the same helper; inside the helper the parameter still carries what any caller passes."""
    result = facts("""
        import stripe
        from openai import OpenAI
        client = OpenAI()
        def clean(text):
            if text == "stop":
                return ""
            return text.strip()
        def run(charge):
            answer = client.responses.create(model="m", input="x").output_text
            stripe.Refund.create(charge=charge, metadata={"why": clean(answer)})
            stripe.Refund.create(charge=charge, metadata={"why": clean("fixed")})
    """)
    executors = {s.location.line: s.id for s in kinds(result, SiteKind.EXECUTOR)}
    fed = {target for _, target in edges(result, EdgeKind.INFERENCE)}
    assert executors[11] in fed and executors[12] not in fed
    # the branch inside the helper still tests model output (from the first caller)
    assert [s.location.line for s in kinds(result, SiteKind.MODEL_BRANCH)] == [6]


def test_summaries_compose_through_two_helpers_and_recursion() -> None:
    result = facts("""
        import stripe
        from openai import OpenAI
        client = OpenAI()
        def inner(value):
            return value
        def outer(value, depth):
            if depth:
                return outer(value, depth - 1)
            return inner(value)
        def run(charge):
            answer = client.responses.create(model="m", input="x").output_text
            stripe.Refund.create(charge=outer(answer, 3))
            stripe.Refund.create(charge=outer(charge, 3))
    """)
    executors = {s.location.line: s.id for s in kinds(result, SiteKind.EXECUTOR)}
    fed = {target for _, target in edges(result, EdgeKind.INFERENCE)}
    assert executors[13] in fed and executors[14] not in fed


def test_flows_run_together_equal_each_flow_run_alone() -> None:
    """`propagate_apart` shares one fixed point between flows; each must read back exactly
    what its own run gives, or a label of one flow would leak into another's answers."""
    from topo.analyzers.flow.dataflow import Seeds, propagate, propagate_apart
    result = facts(files={
        "app/helpers.py": '''
            def passthrough(x):
                return x

            def wrap(x, y):
                return [passthrough(x), y]
        ''',
        "app/main.py": '''
            from app.helpers import passthrough, wrap

            def run(a, b):
                first = passthrough(a)
                both = wrap(first, b)
                send(both)
                return both

            run(source_one(), source_two())
            other = passthrough(source_three())
            keep(other)
        ''',
    })
    calls = {call.name: call.id for file in result.files for call in file.calls}
    flows = {"one": {calls["source_one"]: frozenset({"label:one"})},
             "two": {calls["source_two"]: frozenset({"label:two"}),
                     calls["source_three"]: frozenset({"label:three"})}}
    together = propagate_apart(result.files, result.graph, flows)
    for name, seeds in flows.items():
        alone = propagate(result.files, result.graph, Seeds(calls=seeds))
        assert together[name].calls == alone.calls
        assert together[name].names == alone.names
        assert dict(together[name].returns) == dict(alone.returns)
    sends = next(c for f in result.files for c in f.calls if c.name == "send")
    file = next(f for f in result.files if f.path == "app/main.py")
    assert together["one"].argument_labels(file, sends) == {"label:one"}
    assert together["two"].argument_labels(file, sends) == {"label:two"}
    keeps = next(c for f in result.files for c in f.calls if c.name == "keep")
    assert together["one"].argument_labels(file, keeps) == frozenset()
    assert together["two"].argument_labels(file, keeps) == {"label:three"}
