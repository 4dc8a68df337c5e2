"""Python front-end: calls, their resolved callees, receivers, arguments and spans."""

from __future__ import annotations

from topo.analyzers.ir import ValueKind
from topo.analyzers.model import Location
from tests.analyzers.ir_helpers import PATH, call, only_call, parse

AGENT = '''
import stripe as s
from openai import OpenAI
from . import helpers
from ..tools.mail import send as send_mail

client = OpenAI()


def helper(x):
    return x


class Agent(Base):
    def __init__(self):
        self.llm = OpenAI()

    def run(self, text):
        self.llm.chat.completions.create(model="gpt-4o")
        self.fallback()
        helper(text)
        s.Refund.create(charge="ch_1", amount=500)
        send_mail(to="ops")
        helpers.compute(1)
        client.chat.completions.create()
        OpenAI().chat.completions.create()
        unknown_thing.create()
        local = OpenAI()
        local.embeddings.create()
        print(text)

    def fallback(self):
        pass
'''


def test_callee_through_import_alias() -> None:
    ir = parse(AGENT)
    refund = [c for c in ir.calls if c.receiver == "s.Refund"][0]
    assert refund.callee == "stripe.Refund.create"
    assert refund.name == "create"


def test_callee_through_relative_imports() -> None:
    ir = parse(AGENT)
    assert only_call(ir, "send_mail").callee == "app.tools.mail.send"
    assert only_call(ir, "compute").callee == "app.agents.helpers.compute"


def test_callee_of_local_function_and_self_method() -> None:
    ir = parse(AGENT)
    assert only_call(ir, "helper").callee == "app.agents.refund.helper"
    fallback = only_call(ir, "fallback")
    assert fallback.callee == "app.agents.refund.Agent.fallback"
    assert fallback.receiver == "self"
    assert fallback.scope == "Agent.run"


def test_callee_through_constructor_typed_instances() -> None:
    ir = parse(AGENT)
    creates = {c.receiver: c.callee for c in ir.calls if c.name == "create"}
    assert creates["self.llm.chat.completions"] == "openai.OpenAI.chat.completions.create"
    assert creates["client.chat.completions"] == "openai.OpenAI.chat.completions.create"
    assert creates["OpenAI().chat.completions"] == "openai.OpenAI.chat.completions.create"
    assert creates["local.embeddings"] == "openai.OpenAI.embeddings.create"


def test_a_parameterised_generic_class_is_the_class() -> None:
    ir = parse("""
        from pydantic_ai import Agent
        agent = Agent[Deps, Answer]("openai:gpt-4o")

        @agent.output_validator
        async def check(output):
            return output

        TOOLS = {"refund": refund}
        TOOLS["refund"](1)
        handlers["x"]()
        """)
    assert call(ir, "Agent").callee == "pydantic_ai.Agent"
    assert call(ir, "output_validator").callee == "pydantic_ai.Agent.output_validator"
    # twins: a dispatch table and a dict of handlers are indexed, not parameterised
    assert [c.callee for c in ir.calls if c.name == ""] == [None, None]


def test_unresolvable_callee_is_none_and_builtins_are_named() -> None:
    ir = parse(AGENT)
    assert [c.callee for c in ir.calls if c.receiver == "unknown_thing"] == [None]
    assert only_call(ir, "print").callee == "builtins.print"


def test_chained_call_ids_are_unique() -> None:
    ir = parse(AGENT)
    chained = [c for c in ir.calls if c.location.line == 25]
    assert [(c.name, c.id) for c in chained] == [
        ("OpenAI", f"{PATH}:25:9"), ("create", f"{PATH}:25:9+1")]
    assert len({c.id for c in ir.calls}) == len(ir.calls)


def test_local_definition_named_like_an_sdk_function_resolves_locally() -> None:
    ir = parse('''
        from memrail import AMIClient

        def decide(options):
            return options[0]

        def handle():
            return decide(["refund", "deny"])
    ''')
    assert only_call(ir, "decide").callee == "app.agents.refund.decide"


def test_later_local_definition_shadows_an_import() -> None:
    ir = parse('''
        from memrail import decide

        def decide(options):
            return options[0]

        def handle():
            return decide(["refund"])
    ''')
    assert only_call(ir, "decide").callee == "app.agents.refund.decide"


def test_parameter_shadows_an_import() -> None:
    ir = parse('''
        import stripe

        def refund(stripe, charge):
            stripe.Refund.create(charge=charge)
    ''')
    assert only_call(ir, "create").callee is None


def test_conditional_constructors_are_not_guessed() -> None:
    ir = parse('''
        from openai import OpenAI
        from anthropic import Anthropic

        def answer(fast):
            if fast:
                model = OpenAI()
            else:
                model = Anthropic()
            return model.complete()
    ''')
    assert only_call(ir, "complete").callee is None


def test_function_local_import_and_non_constructor_result() -> None:
    ir = parse('''
        def handle():
            import stripe as payments
            from app.clients import make_client
            payments.Charge.create()
            c = make_client()
            c.send()
    ''')
    assert only_call(ir, "create").callee == "stripe.Charge.create"
    assert only_call(ir, "send").callee is None
    imports = [(i.module, i.name, i.alias, i.scope) for i in ir.imports]
    assert imports == [("stripe", None, "payments", "handle"),
                       ("app.clients", "make_client", "make_client", "handle")]


def test_inherited_method_of_a_local_base_and_annotated_attribute() -> None:
    ir = parse('''
        from memrail import AMIClient

        class Base:
            def audit(self):
                pass

        class Agent(Base):
            client: AMIClient

            def run(self):
                self.audit()
                self.client.decide(decision_point="refund")
    ''')
    assert only_call(ir, "audit").callee == "app.agents.refund.Base.audit"
    assert only_call(ir, "decide").callee == "memrail.AMIClient.decide"


def test_with_as_binds_the_constructed_instance() -> None:
    ir = parse('''
        import httpx

        async def fetch():
            async with httpx.AsyncClient() as http:
                return await http.get("/x")
    ''')
    get = only_call(ir, "get")
    assert get.callee == "httpx.AsyncClient.get"
    assert get.awaited is True
    assert only_call(ir, "AsyncClient").awaited is False


def test_literal_keyword_arguments() -> None:
    ir = parse(AGENT)
    refund = [c for c in ir.calls if c.receiver == "s.Refund"][0]
    charge = refund.kwarg("charge")
    amount = refund.kwarg("amount")
    assert (charge.kind, charge.literal, charge.text) == (ValueKind.STRING, "ch_1", '"ch_1"')
    assert (amount.kind, amount.literal) == (ValueKind.NUMBER, 500)
    assert refund.args == ()


def test_dict_and_list_literals_f_strings_and_spreads() -> None:
    ir = parse('''
        def ask(client, text, extra, options):
            client.create(
                messages=[{"role": "user", "content": f"say {text.strip()} now"}],
                limit=-3, flag=True, nothing=None,
                *extra, **options)
    ''')
    create = only_call(ir, "create")
    messages = create.kwarg("messages")
    assert messages.kind is ValueKind.LIST
    message = messages.entries[0][1]
    assert message.kind is ValueKind.DICT
    assert message.entry("role").literal == "user"
    content = message.entry("content")
    assert content.kind is ValueKind.FORMAT
    assert content.reads == ("text",)
    assert create.kwarg("limit").literal == -3
    assert create.kwarg("flag").kind is ValueKind.BOOL and create.kwarg("flag").literal is True
    assert create.kwarg("nothing").kind is ValueKind.NONE
    assert create.args[0].kind is ValueKind.SPREAD
    assert create.args[0].entries[0][1].ref == "extra"
    assert create.kwarg("**").kind is ValueKind.SPREAD
    assert create.kwarg("**").entries[0][1].ref == "options"


def test_nested_call_argument_refers_to_the_inner_call() -> None:
    ir = parse('''
        from app.tools import search, compute

        def run(x):
            return compute(search(x), tools=[search], key=x.data["id"])
    ''')
    inner = only_call(ir, "search")
    outer = only_call(ir, "compute")
    assert outer.args[0].kind is ValueKind.CALL
    assert outer.args[0].call == inner.id
    tools = outer.kwarg("tools").entries[0][1]
    assert (tools.kind, tools.ref, tools.resolved) == (ValueKind.NAME, "search",
                                                       "app.tools.search")
    key = outer.kwarg("key")
    assert (key.ref, key.reads) == ('x.data["id"]', ('x.data["id"]',))


def test_access_paths_of_receivers_and_subscripts() -> None:
    ir = parse('''
        def read(resp, handlers, action):
            resp.choices[0].message.content.strip()
            handlers[action](resp)
    ''')
    strip = only_call(ir, "strip")
    assert strip.receiver == "resp.choices[0].message.content"
    dispatch = [c for c in ir.calls if c.name == ""][0]
    assert dispatch.receiver == "handlers[*]"
    assert dispatch.callee is None


def test_multi_line_statement_span() -> None:
    ir = parse('''
        from openai import OpenAI
        client = OpenAI()
        resp = client.chat.completions.create(
            model="gpt-4o",
            temperature=0,
        )
    ''')
    create = only_call(ir, "create")
    assert create.location == Location(PATH, 3, 8, 6, 2)
    assert create.statement == Location(PATH, 3, 1, 6, 2)
    assert create.id == f"{PATH}:3:8"


def test_call_in_if_test_has_header_statement_span() -> None:
    ir = parse('''
        def gate(client, x):
            if client.allowed(
                    x):
                pass
    ''')
    allowed = only_call(ir, "allowed")
    assert allowed.statement == Location(PATH, 2, 5, 3, 15)
    assert allowed.guards == ()


def test_scopes_of_nested_definitions_and_class_bodies() -> None:
    ir = parse('''
        class Registry:
            tools = make_tools()

            def handler(self):
                def inner():
                    work()
                return inner
    ''')
    assert only_call(ir, "make_tools").scope == "Registry"
    assert only_call(ir, "work").scope == "Registry.handler.inner"
    assert call(ir, "work").callee is None


def test_typed_attribute_of_a_local_class_instance() -> None:
    ir = parse('''
        from dataclasses import dataclass
        from openai import AsyncOpenAI

        @dataclass
        class Deps:
            llm: AsyncOpenAI
            name: str = make_name()

        async def run(deps: Deps):
            await deps.llm.chat.completions.create(model="gpt-4o")
            deps.name.upper()
            Deps(llm=None).other.call()
    ''')
    assert only_call(ir, "create").callee == "openai.AsyncOpenAI.chat.completions.create"
    assert only_call(ir, "upper").callee is None
    assert only_call(ir, "call").callee == "app.agents.refund.Deps.other.call"


def test_typed_property_and_method_return_annotations_name_the_declared_class() -> None:
    ir = parse('''
        from pathlib import Path
        from playwright.async_api import Page

        class Computer:
            @property
            def page(self) -> Page:
                return self._page

            @property
            def size(self):
                return 3

            def _resolve(self, relative) -> Path:
                return Path(relative)

            def _untyped(self, relative):
                return Path(relative)

            async def click(self, x, y):
                await self.page.mouse.click(x, y)
                self._resolve("a").write_text("x")
                self._untyped("b").write_bytes(b"x")
                self.size.bit_length()
    ''')
    assert only_call(ir, "click").callee == "playwright.async_api.Page.mouse.click"
    assert only_call(ir, "write_text").callee == "pathlib.Path.write_text"
    assert only_call(ir, "write_bytes").callee is None        # no declared return: not guessed
    assert only_call(ir, "bit_length").callee == "app.agents.refund.Computer.size.bit_length"


def test_a_receiver_that_is_no_path_keeps_what_it_reads():
    ir = parse('ok = (reply.text or "").lower()\nname = user.name.lower()\n')
    first, second = call(ir, "lower"), call(ir, "lower", nth=1)
    assert (first.receiver, first.receiver_reads) == (None, ("reply.text",))
    assert (second.receiver, second.receiver_reads) == ("user.name", ())


def test_a_binary_operator_is_typed_by_the_method_python_calls() -> None:
    ir = parse('''
        from pkg import Model, Prompt, Parser
        llm = Model()
        chain = Prompt() | llm | Parser()
        chain.run()
        right = llm | Parser()
        right.run()
        plain = Prompt() | Parser()
        plain.run()
        other = (Prompt() & llm)
        other.run()
    ''', factories=frozenset({"pkg.Model.__ror__", "pkg.Model.__ror__.__or__",
                              "pkg.Model.__or__"}))
    # `a | b` is `A.__or__(b)`, else `B.__ror__(a)`, an instance only when a factory builds it
    assert [c.callee for c in ir.calls if c.name == "run"] == [
        "pkg.Model.__ror__.__or__.run", "pkg.Model.__or__.run", None, None]


def test_an_lcel_sequence_and_chained_derivations_keep_the_model_type() -> None:
    ir = parse('''
        from langchain_core.output_parsers import StrOutputParser
        from langchain_core.prompts import ChatPromptTemplate
        from langchain_openai import ChatOpenAI
        prompt = ChatPromptTemplate.from_messages([("user", "{t}")])
        ChatOpenAI(model="m").bind_tools([]).with_config({}).with_retry().invoke("x")
        (prompt | ChatOpenAI().with_structured_output(S)).invoke({})
        (prompt | StrOutputParser()).invoke({})
    ''')
    assert [c.callee for c in ir.calls if c.name == "invoke"] == [
        "langchain_openai.ChatOpenAI.bind_tools.with_config.with_retry.invoke",
        "langchain_openai.ChatOpenAI.with_structured_output.__ror__.invoke", None]


def test_an_optional_type_or_a_default_names_the_class_its_alternatives_agree_on() -> None:
    ir = parse('''
        from typing import Optional, Union
        from anthropic import Anthropic
        from app import settings

        class Replay: ...

        def typed(a: Optional[Anthropic], b: Anthropic | None, c: Union[None, Anthropic]):
            a.messages.create()
            b.messages.create()
            c.messages.create()

        def defaulted(given=None, flag=False):
            first = given or Anthropic()
            second = Anthropic() if flag else None
            first.messages.create()
            second.messages.create()

        def unknown(d: Union[Anthropic, Replay], given: Optional[Anthropic] = None):
            mixed = given or Replay()
            d.messages.create()
            mixed.messages.create()

        def own(config=None):
            # A default of the repository's own package is its state, not a client: unread.
            config = config or settings.Settings()
            config.messages.create()
    ''')
    callees = [c.callee for c in ir.calls if c.name == "create"]
    assert callees == ["anthropic.Anthropic.messages.create"] * 5 + [None, None, None]


def test_calling_an_instance_runs_its_call_method_not_the_class() -> None:
    ir = parse('''
        from strands import Agent

        agent = Agent(tools=[])
        Alias = Agent

        def run(typed: Agent, task):
            agent(task)
            typed(task)
            Alias(tools=[])
            Agent(tools=[])
            with Agent() as scoped:
                scoped(task)
    ''')
    callees = [c.callee for c in ir.calls if c.location.line > 5]
    assert callees == ["strands.Agent.__call__", "strands.Agent.__call__", "strands.Agent",
                       "strands.Agent", "strands.Agent", "strands.Agent.__call__"]


def test_a_client_chosen_among_one_sdks_classes_is_named_through_the_first() -> None:
    ir = parse('''
        from anthropic import Anthropic, AnthropicBedrock
        from openai import OpenAI
        from app.fakes import FakeClient, RecordedClient

        def one_sdk(provider):
            client = Anthropic() if provider == "a" else None
            if provider == "bedrock":
                client = AnthropicBedrock()
            else:
                client = Anthropic()
            client.messages.create()

        def two_sdks(provider):
            if provider:
                client = Anthropic()
            else:
                client = OpenAI()
            client.messages.create()

        def own_classes(provider):
            if provider:
                client = FakeClient()
            else:
                client = RecordedClient()
            client.messages.create()
    ''')
    callees = [c.callee for c in ir.calls if c.name == "create"]
    assert callees == ["anthropic.Anthropic.messages.create", None, None]
