"""Cross-module resolution (analyzers/flow/resolution.py): what names hold across files.

Each pattern is checked both ways: the resolved form names the callee, and a twin whose
bindings or call sites disagree stays unresolved.
"""

from __future__ import annotations

import textwrap

from topo.analyzers.flow.resolution import resolve_files
from topo.analyzers.ir import ValueKind
from topo.analyzers.packs import factories
from topo.analyzers.python.frontend import parse_python
from topo.analyzers.typescript.frontend import parse_typescript

FACTORIES = factories()


def _resolved(**sources: str):
    files = [parse_python(path, textwrap.dedent(text),
                          path.removesuffix(".py").replace("/", ".").removesuffix(".__init__"),
                          strict=True, factories=FACTORIES)
             for path, text in sources.items()]
    return {f.path: f for f in resolve_files(files, FACTORIES)}


def _callees(file, name: str) -> list[str | None]:
    return [c.callee for c in file.calls if c.name == name]


CONTROL = """
    from memrail import AMIClient
    POINT = "billing.refund"
    client = AMIClient()
    def make():
        return AMIClient()
"""


def test_untyped_parameter_takes_the_type_every_caller_passes() -> None:
    files = _resolved(**{"app.py": """
        from memrail import AsyncAMIClient
        async def run(client):
            return await client.decide(decision_point="x")
        async def main():
            async with AsyncAMIClient() as client:
                await run(client)
    """})
    assert _callees(files["app.py"], "decide") == ["memrail.AsyncAMIClient.decide"]


def test_parameter_whose_callers_disagree_stays_unresolved() -> None:
    files = _resolved(**{"app.py": """
        from memrail import AMIClient
        class Fake:
            def decide(self, **kw): ...
        def run(client):
            return client.decide(decision_point="x")
        run(AMIClient())
        run(Fake())
    """})
    assert _callees(files["app.py"], "decide") == [None]


def test_module_instance_and_constant_imported_from_another_module() -> None:
    files = _resolved(**{"control.py": CONTROL, "use.py": """
        from control import client, POINT
        def go():
            return client.decide(decision_point=POINT)
    """})
    (call,) = [c for c in files["use.py"].calls if c.name == "decide"]
    assert call.callee == "memrail.AMIClient.decide"
    value = call.kwarg("decision_point")
    assert value.kind is ValueKind.STRING and value.literal == "billing.refund"
    assert value.text == "POINT"      # the evidence keeps what was written


def test_factory_result_assigned_and_called_in_one_expression() -> None:
    files = _resolved(**{"control.py": CONTROL, "use.py": """
        from control import make
        def a():
            ami = make()
            return ami.decide(decision_point="a")
        def b():
            return make().decide(decision_point="b")
    """})
    assert _callees(files["use.py"], "decide") == ["memrail.AMIClient.decide"] * 2


def test_factory_whose_returns_disagree_names_nothing() -> None:
    files = _resolved(**{"app.py": """
        from memrail import AMIClient
        class Fake:
            pass
        def make(real):
            if real:
                return AMIClient()
            return Fake()
        def go():
            return make(True).decide(decision_point="a")
    """})
    assert _callees(files["app.py"], "decide") == [None]


def test_return_annotation_names_the_factory_result() -> None:
    files = _resolved(**{"app.py": """
        from memrail import AsyncAMIClient
        def open_client() -> AsyncAMIClient:
            return build()
        async def go():
            async with open_client() as ami:
                await ami.decide(decision_point="a")
    """})
    assert _callees(files["app.py"], "decide") == ["memrail.AsyncAMIClient.decide"]


def test_self_attribute_set_from_a_factory() -> None:
    files = _resolved(**{"control.py": CONTROL, "desk.py": """
        from control import make
        class Desk:
            def __init__(self):
                self.ami = make()
            def review(self):
                return self.ami.decide(decision_point="a")
    """})
    assert _callees(files["desk.py"], "decide") == ["memrail.AMIClient.decide"]


def test_callback_parameter_names_the_function_passed() -> None:
    files = _resolved(**{"app.py": """
        def draft(text):
            return text
        def start(on_message):
            return on_message("hi")
        start(draft)
    """})
    assert _callees(files["app.py"], "on_message") == ["app.draft"]


def test_a_name_rebound_locally_is_no_module_constant() -> None:
    files = _resolved(**{"app.py": """
        POINT = "a"
        def go(client, POINT):
            return client.decide(decision_point=POINT)
        def twice():
            return g(decision_point=ONCE)
        ONCE = "x"
        ONCE = "y"
    """})
    calls = {c.name: c for c in files["app.py"].calls}
    assert calls["decide"].kwarg("decision_point").kind is ValueKind.NAME
    assert calls["g"].kwarg("decision_point").kind is ValueKind.NAME


def test_constants_held_in_a_module_a_dict_a_class_or_an_enum() -> None:
    files = _resolved(**{"names.py": """
        import enum
        SENT = "agent.sent.email"
        TOPICS = {"sent": "agent.sent.email", "nested": {"done": "agent.completed.task"}}
        class Events:
            SENT = "agent.sent.email"
            TWICE = "a"
            TWICE = "b"
        class Topic(str, enum.Enum):
            SENT = "agent.sent.email"
        class Plain(enum.Enum):
            SENT = "agent.sent.email"
    """, "use.py": """
        import names
        from names import Events, Topic, Plain, TOPICS
        def go(client, local):
            client.emit(names.SENT)
            client.emit(TOPICS["sent"])
            client.emit(Events.SENT)
            client.emit(Topic.SENT)
            client.emit(Plain.SENT.value)
            client.emit(Plain.SENT)
            client.emit(Events.TWICE)
            client.emit(names.MISSING)
            client.emit(local.SENT)
    """})
    values = [c.args[0] for c in files["use.py"].calls if c.name == "emit"]
    literals = [v.literal if v.kind is ValueKind.STRING else None for v in values]
    assert literals == ["agent.sent.email", None, "agent.sent.email", "agent.sent.email",
                        "agent.sent.email", None, None, None, None]
    assert [v.text for v in values][:1] == ["names.SENT"]     # the evidence as written


def test_an_attribute_of_a_typed_parameter_is_not_the_class_default() -> None:
    files = _resolved(**{"models.py": """
        class Ticket:
            note: str = "none yet"
    """, "use.py": """
        from models import Ticket
        def go(client, ticket: Ticket):
            client.emit(ticket.note)
            client.emit(Ticket.note)
    """})
    values = [c.args[0] for c in files["use.py"].calls if c.name == "emit"]
    assert [v.kind for v in values] == [ValueKind.NAME, ValueKind.STRING]


def test_a_key_of_an_exported_object_literal_in_typescript() -> None:
    files = [parse_typescript("src/names.ts", textwrap.dedent("""
        export const Topics = { SENT: 'agent.sent.email' } as const;
        export class Ev { static readonly SENT = 'agent.sent.email'; }
    """), "src/names"), parse_typescript("src/use.ts", textwrap.dedent("""
        import { Topics, Ev } from './names';
        export function go(client: any) {
          client.emit(Topics.SENT);
          client.emit(Ev.SENT);
          client.emit(Topics.OTHER);
        }
    """), "src/use")]
    use = {f.path: f for f in resolve_files(files, FACTORIES)}["src/use.ts"]
    values = [c.args[0] for c in use.calls if c.name == "emit"]
    assert [v.literal for v in values] == ["agent.sent.email", "agent.sent.email", None]


def test_recursive_factories_terminate_unresolved() -> None:
    files = _resolved(**{"app.py": """
        def a():
            return b()
        def b():
            return a()
        def go():
            return a().decide(decision_point="x")
    """})
    assert _callees(files["app.py"], "decide") == [None]


def test_self_referencing_locals_terminate_unresolved() -> None:
    files = _resolved(**{"app.py": """
        def go(a):
            x = y
            y = x
            x = x.parent
            return x.decide(decision_point="x")
    """})
    assert _callees(files["app.py"], "decide") == [None]


def test_sibling_import_beside_a_script() -> None:
    files = _resolved(**{"examples/bot/helpers.py": CONTROL, "examples/bot/app.py": """
        import helpers
        from helpers import client
        def go():
            helpers.client.decide(decision_point=helpers.POINT)
            return client.decide(decision_point="b")
    """})
    app = files["examples/bot/app.py"]
    assert _callees(app, "decide") == ["memrail.AMIClient.decide"] * 2
    first = next(c for c in app.calls if c.name == "decide")
    assert first.kwarg("decision_point").literal == "billing.refund"   # `helpers.POINT`


def test_a_constant_read_as_a_member_of_its_module_or_class() -> None:
    """`points.P`, `pkg.points.P` and `alias.P` are the module constant, `Points.REFUND` the
    class body's; an instance's or a parameter's attribute, a name bound twice and a plain
    Enum's member are not."""
    files = _resolved(**{"pkg/__init__.py": "", "pkg/points.py": """
        P = "billing.refund"
        TWICE = "a"
        TWICE = "b"
        import enum
        class Points:
            REFUND = "billing.class"
            AGAIN = "a"
            AGAIN = "b"
        class Named(str, enum.Enum):
            REFUND = "billing.enum"
        class Numbered(enum.Enum):
            REFUND = "billing.member"
        class Settings:
            def __init__(self):
                self.P = "billing.settings"
        settings = Settings()
    """, "pkg/use.py": """
        from pkg import points
        import pkg.points
        import pkg.points as bp
        from pkg.points import Named, Numbered, Points, settings
        def go(client, request):
            client.decide(decision_point=points.P)
            client.decide(decision_point=pkg.points.P)
            client.decide(decision_point=bp.P)
            client.decide(decision_point=Points.REFUND)
            client.decide(decision_point=Named.REFUND)
            client.decide(decision_point=Numbered.REFUND)
            client.decide(decision_point=request.P)
            client.decide(decision_point=settings.P)
            client.decide(decision_point=points.TWICE)
            client.decide(decision_point=Points.AGAIN)
    """})
    found = [c.kwarg("decision_point").literal for c in files["pkg/use.py"].calls
             if c.name == "decide"]
    # A plain Enum's member is a member object, not its value; a `str` Enum's is a string.
    assert found == ["billing.refund"] * 3 + ["billing.class", "billing.enum"] + [None] * 5


def test_a_real_package_shadows_no_sibling() -> None:
    """`import helpers` from inside a package (not a script directory) is not the sibling."""
    files = _resolved(**{"pkg/__init__.py": "", "pkg/helpers.py": CONTROL, "pkg/app.py": """
        from helpers import client
        def go():
            return client.decide(decision_point="b")
    """})
    assert _callees(files["pkg/app.py"], "decide") == ["helpers.client.decide"]


def test_tuple_returning_helper_types_each_name() -> None:
    files = _resolved(**{"app.py": """
        from memrail import AMIClient
        import resend
        class Desk:
            def _open_clients(self):
                return AMIClient(), resend.Emails
            def go(self):
                ami, mailer = self._open_clients()
                first, *rest = self._open_clients()
                ami.decide(decision_point="x")
                rest.decide(decision_point="y")
                for one, two in self._pairs():
                    one.decide(decision_point="z")
    """})
    assert _callees(files["app.py"], "decide") == ["memrail.AMIClient.decide", None, None]


def test_ts_destructured_object_of_clients() -> None:
    from topo.analyzers.typescript.frontend import parse_typescript
    from topo.analyzers.ir import Language
    source = textwrap.dedent("""
        import { AMIClient } from "@memrail/sdk";
        function openClients() { return { ami: new AMIClient({}), other: 1 }; }
        export async function go() {
          const { ami, other } = openClients();
          const [first] = [new AMIClient({})];
          await ami.decide({ decisionPoint: "x" });
          await first.decide({ decisionPoint: "y" });
          await other.decide({ decisionPoint: "z" });
        }
    """)
    ir = parse_typescript("src/app.ts", source, "src/app", Language.TYPESCRIPT)
    (resolved,) = resolve_files([ir], FACTORIES)
    assert _callees(resolved, "decide") == ["@memrail/sdk.AMIClient.decide"] * 2 + [None]


def _ts(source: str):
    from topo.analyzers.ir import Language
    from topo.analyzers.typescript.frontend import parse_typescript
    ir = parse_typescript("src/app.ts", textwrap.dedent(source), "src/app", Language.TYPESCRIPT)
    (resolved,) = resolve_files([ir], FACTORIES)
    return resolved


def test_ts_return_annotation_and_callback() -> None:
    resolved = _ts("""
        import { AMIClient } from "@memrail/sdk";
        declare function build(): unknown;
        function open(): AMIClient { return build() as AMIClient; }
        async function later(): Promise<AMIClient> { return build() as AMIClient; }
        function opaque() { return build(); }
        export async function go(onReply) {
          await open().decide({ decisionPoint: "a" });
          const ami = await later();
          await ami.decide({ decisionPoint: "b" });
          await opaque().decide({ decisionPoint: "c" });
          return onReply("x");
        }
        function draft(text: string) { return text; }
        export async function main() { await go(draft); }
    """)
    assert _callees(resolved, "decide") == ["@memrail/sdk.AMIClient.decide"] * 2 + [None]
    assert _callees(resolved, "onReply") == ["src/app.draft"]


def test_a_class_inherits_its_repo_ancestors_library_bases() -> None:
    files = _resolved(**{"tools/base.py": """
        from crewai.tools import BaseTool
        class RagTool(BaseTool):
            pass
        class Plain:
            pass
    """, "tools/search.py": """
        from tools.base import RagTool, Plain
        class DocsSearch(RagTool):
            name: str = "docs_search"
        class Other(Plain):
            pass
    """})
    classes = {d.name: d.bases for d in files["tools/search.py"].definitions}
    assert classes["DocsSearch"] == ("tools.base.RagTool", "crewai.tools.BaseTool")
    assert "crewai.tools.BaseTool" not in classes["Other"]
    assert classes["Other"] == ("tools.base.Plain",)


def test_an_ancestor_defined_in_the_audited_repo_keeps_its_written_name() -> None:
    """Auditing crewAI itself: `BaseTool` is a repo class re-exported by `crewai.tools`;
    a grandchild still lists `crewai.tools.BaseTool`, the name packs match."""
    files = _resolved(**{"crewai/__init__.py": "", "crewai/tools/__init__.py": """
        from crewai.tools.base_tool import BaseTool
    """, "crewai/tools/base_tool.py": """
        class BaseTool:
            pass
    """, "rag.py": """
        from crewai.tools import BaseTool
        class RagTool(BaseTool):
            pass
    """, "search.py": """
        from rag import RagTool
        class PdfSearch(RagTool):
            pass
    """})
    bases = next(d.bases for d in files["search.py"].definitions if d.name == "PdfSearch")
    assert "crewai.tools.BaseTool" in bases


def test_a_derived_runnable_imported_from_another_module_keeps_the_model_type() -> None:
    files = _resolved(**{"llm.py": """
        from langchain_anthropic import ChatAnthropic
        model = ChatAnthropic(model="m").bind_tools([]).with_config({"tags": ["x"]})
        def make():
            return ChatAnthropic(model="m").with_structured_output(S)
    """, "use.py": """
        from llm import model, make
        def go(text):
            model.invoke(text)
            make().invoke(text)
    """})
    assert _callees(files["use.py"], "invoke") == [
        "langchain_anthropic.ChatAnthropic.bind_tools.with_config.invoke",
        "langchain_anthropic.ChatAnthropic.with_structured_output.invoke"]


def test_ts_a_derived_runnable_exported_from_another_module_keeps_the_model_type() -> None:
    from topo.analyzers.ir import Language
    files = [parse_typescript("src/llm.ts", textwrap.dedent("""
        import { ChatAnthropic } from "@langchain/anthropic";
        export const model = new ChatAnthropic({}).withStructuredOutput(schema, { name: "x" });
    """), "src/llm", Language.TYPESCRIPT), parse_typescript("src/use.ts", textwrap.dedent("""
        import { model } from "./llm";
        export async function go(text: string) { return await model.invoke(text); }
    """), "src/use", Language.TYPESCRIPT)]
    resolved = {f.path: f for f in resolve_files(files, FACTORIES)}
    assert _callees(resolved["src/use.ts"], "invoke") == [
        "@langchain/anthropic.ChatAnthropic.withStructuredOutput.invoke"]


def test_ts_a_pipe_on_a_prompt_imported_from_another_module_holds_the_model() -> None:
    from topo.analyzers.ir import Language
    from topo.analyzers.packs import wrappers
    files = [parse_typescript("src/prompts.ts", textwrap.dedent("""
        import { ChatPromptTemplate } from "@langchain/core/prompts";
        export const prompt = ChatPromptTemplate.fromMessages([["user", "{t}"]]);
    """), "src/prompts", Language.TYPESCRIPT, wrappers=wrappers()),
        parse_typescript("src/chains.ts", textwrap.dedent("""
        import { ChatAnthropic } from "@langchain/anthropic";
        import { StringOutputParser } from "@langchain/core/output_parsers";
        import { prompt } from "./prompts";
        const llm = new ChatAnthropic({});
        export const chain = prompt.pipe(llm);
        export const render = prompt.pipe(new StringOutputParser());
    """), "src/chains", Language.TYPESCRIPT, wrappers=wrappers()),
        parse_typescript("src/use.ts", textwrap.dedent("""
        import { chain, render } from "./chains";
        export async function go(t: string) {
          await chain.invoke({ t });
          await render.invoke({ t });
        }
    """), "src/use", Language.TYPESCRIPT, wrappers=wrappers())]
    resolved = {f.path: f for f in resolve_files(files, FACTORIES, wrappers=wrappers())}
    # The pipe holds its argument: the model, or a parser (no model runs: not an inference)
    assert _callees(resolved["src/use.ts"], "invoke") == [
        "@langchain/anthropic.ChatAnthropic.invoke",
        "@langchain/core/output_parsers.StringOutputParser.invoke"]
