"""Real Python snippets through the front-end and the shipped packs.

Each test parses a small program with `parse_python` and asserts the sites by kind, line,
symbol and the attributes later checks rely on. Lines are found by a marker comment so the
snippets can be edited without renumbering.
"""

from __future__ import annotations

import textwrap

from topo.analyzers.packs import classify, factories, fingerprint
from topo.analyzers.python import parse_python
from topo.analyzers.model import SiteKind

FACTORIES = factories()   # the shipped packs' factories, for the Python front-end


def parse(source: str, path: str = "app/agent.py", module: str = "app.agent"):
    return parse_python(path, textwrap.dedent(source), module, strict=True, factories=FACTORIES)


def sites_in(source: str):
    return classify([parse(source)])


def line_of(source: str, marker: str) -> int:
    lines = textwrap.dedent(source).splitlines()
    [line] = [number for number, text in enumerate(lines, 1) if f"# {marker}" in text]
    return line


def by_kind(sites, kind: SiteKind):
    return [site for site in sites if site.kind is kind]


def one(sites, kind: SiteKind, line: int):
    found = [site for site in sites if site.kind is kind and site.location.line == line]
    assert len(found) == 1, f"{kind} at line {line}: {found}"
    return found[0]


REFUND_AGENT = '''
from datetime import datetime, timezone

import stripe
from memrail import AsyncAMIClient, ToolRegistry, atoms_from_dict
from memrail.atoms import event, state, tag
from memrail.models import InvokeOptions

registry = ToolRegistry()


@registry.tool("refund.issue", "Issue a refund", {"order_id": str}, projects=["support"])
async def issue_refund(order_id: str, amount_cents: int):  # TOOL
    stripe.Refund.create(charge=order_id, amount=amount_cents)  # STRIPE
    await client.emit_event(  # EMIT
        event("support.refund.issued", ts=datetime.now(timezone.utc),  # EVENT
              attributes={"order_id": order_id}),
        project="support")


client = AsyncAMIClient(project="support")


class RefundAgent:
    def __init__(self):
        self.client = AsyncAMIClient()

    async def handle(self, order, intent):
        response = await self.client.decide(  # DECIDE
            decision_point="refund.approve",
            context=[
                state("refund.amount_cents", order.amount_cents),  # STATE
                tag("intent", intent, source="ml"),  # TAG
                *atoms_from_dict({"tier": order.tier, "_secret": 1, "note": None},  # DICT
                                 prefix="customer"),
            ],
            options=InvokeOptions(dry_run=False),
        )
        for item in response.selected:
            await self.client.ack(item.activation_id, "acknowledged", code="SUCCESS")  # ACK
        return response
'''


def test_memrail_refund_agent():
    sites = sites_in(REFUND_AGENT)
    line = lambda marker: line_of(REFUND_AGENT, marker)  # noqa: E731

    decide = one(sites, SiteKind.DECISION_CALL, line("DECIDE"))
    assert decide.symbol == "app.agent.RefundAgent.handle" and decide.system == "memrail"
    assert decide.attr("decision_point") == "refund.approve"
    assert decide.attr("enforced") is True and decide.attr("dry_run") is False
    atom_lines = {site.attr("call"): site.location.line for site in by_kind(sites, SiteKind.ATOM)}
    assert [atom_lines[call_id] for call_id in decide.attr("atoms")] == [
        line("STATE"), line("TAG"), line("DICT")]
    assert decide.attr("atoms_literal") is None

    state_site = one(sites, SiteKind.ATOM, line("STATE"))
    assert (state_site.attr("kind"), state_site.attr("key")) == ("state", "refund.amount_cents")
    assert state_site.attr("value_type") == "dynamic"
    tag_site = one(sites, SiteKind.ATOM, line("TAG"))
    assert (tag_site.attr("kind"), tag_site.attr("source")) == ("tag", "ml")
    [expanded] = [site for site in by_kind(sites, SiteKind.ATOM) if site.attr("expanded")]
    assert expanded.attr("key") == "customer.tier" and expanded.location.line == line("DICT")

    tool = one(sites, SiteKind.TOOL_REGISTRATION, line("TOOL"))
    assert tool.symbol == "app.agent.issue_refund" and tool.attr("tool_name") == "refund.issue"
    assert tool.attr("projects") == ("support",)

    stripe_site = one(sites, SiteKind.EXECUTOR, line("STRIPE"))
    assert stripe_site.attr("tier") == "money" and stripe_site.symbol == "app.agent.issue_refund"

    emit = one(sites, SiteKind.EVENT_EMIT, line("EMIT"))
    assert emit.attr("event_name") == "support.refund.issued"
    assert emit.attr("attribute_keys") == ("order_id",) and emit.attr("project") == "support"
    assert one(sites, SiteKind.ATOM, line("EVENT")).attr("kind") == "event"

    ack = one(sites, SiteKind.ACK, line("ACK"))
    assert ack.attr("status") == "acknowledged" and ack.attr("role") == "recording"

    assert fingerprint(parse(REFUND_AGENT)) == frozenset({"memrail", "sinks", "payments"})
    assert len(sites) == 9


def test_dynamic_decision_point_from_model_output():
    source = '''
    from openai import OpenAI
    from memrail import AMIClient

    llm = OpenAI()
    memrail = AMIClient()

    def route(messages):
        reply = llm.chat.completions.create(model="gpt-4o", messages=messages)  # LLM
        action = reply.choices[0].message.content
        return memrail.decide(decision_point=action, atoms=[])  # DECIDE
    '''
    sites = sites_in(source)
    llm = one(sites, SiteKind.INFERENCE, line_of(source, "LLM"))
    assert llm.attr("provider") == "openai" and llm.attr("model") == "gpt-4o"
    assert llm.symbol == "app.agent.route"
    decide = one(sites, SiteKind.DECISION_CALL, line_of(source, "DECIDE"))
    assert decide.attr("decision_point_literal") is False
    assert decide.attr("decision_point_text") == "action"


def test_openai_and_anthropic_calls():
    source = '''
    import anthropic
    from openai import AsyncOpenAI

    client = AsyncOpenAI()

    async def answer(question, tools):
        await client.responses.create(model="gpt-4.1", input=question, tools=tools)  # RESP
        anthropic.Anthropic().messages.create(model=MODEL, max_tokens=5, messages=[])  # ANT
    '''
    sites = sites_in(source)
    responses = one(sites, SiteKind.INFERENCE, line_of(source, "RESP"))
    assert responses.attr("api") == "responses" and responses.attr("tools") == "tools"
    assert responses.attr("callee") == "openai.AsyncOpenAI.responses.create"
    ant = one(sites, SiteKind.INFERENCE, line_of(source, "ANT"))
    assert ant.system == "anthropic" and ant.attr("model_literal") is False
    assert ant.attr("model_text") == "MODEL"
    assert len(sites) == 2


def test_stripe_refund_in_a_plain_function():
    source = '''
    import stripe

    def refund(charge_id, cents):
        if cents < 5000:
            return stripe.Refund.create(charge=charge_id, amount=cents)  # REFUND
    '''
    [site] = sites_in(source)
    assert site.kind is SiteKind.EXECUTOR and site.location.line == line_of(source, "REFUND")
    assert site.symbol == "app.agent.refund" and site.system == "stripe"
    assert site.attr("tier") == "money" and site.attr("charge") == "charge_id"
    assert site.id == f"executor:app/agent.py:{site.location.line}:{site.location.column}"


def test_langgraph_interrupt_and_compile_breakpoint():
    source = '''
    from langgraph.graph import StateGraph
    from langgraph.types import interrupt

    def review(state):
        decision = interrupt({"question": "Refund?", "amount": state["amount"]})  # GATE
        return {"approved": decision == "yes"}

    builder = StateGraph(dict)
    graph = builder.compile(interrupt_before=["refund"])  # COMPILE
    plain = builder.compile()
    '''
    sites = sites_in(source)
    gate = one(sites, SiteKind.APPROVAL_GATE, line_of(source, "GATE"))
    assert gate.symbol == "app.agent.review" and gate.attr("enforced") is True
    assert gate.attr("approver") == "human" and gate.system == "langgraph"
    compiled = one(sites, SiteKind.APPROVAL_GATE, line_of(source, "COMPILE"))
    assert compiled.attr("interrupt_before") == ("refund",) and compiled.symbol == "app.agent"
    assert len(sites) == 2


def test_mcp_tool_with_model_visible_consent():
    source = '''
    import shutil
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("files")

    @mcp.tool(name="delete_workspace")
    def delete(path: str, confirmed: bool = False) -> str:  # TOOL
        shutil.rmtree(path)  # SINK
        return "deleted"

    @mcp.tool()
    async def read(path: str) -> str:  # READ
        return open(path).read()
    '''
    sites = sites_in(source)
    tool = one(sites, SiteKind.TOOL_REGISTRATION, line_of(source, "TOOL"))
    assert tool.attr("tool_name") == "delete_workspace" and tool.symbol == "app.agent.delete"
    assert tool.system == "mcp"
    consent = one(sites, SiteKind.APPROVAL_GATE, line_of(source, "TOOL"))
    assert consent.attr("parameter") == "confirmed" and consent.attr("enforced") is False
    assert consent.id.endswith(":confirmed")
    sink = one(sites, SiteKind.EXECUTOR, line_of(source, "SINK"))
    assert sink.attr("tier") == "deletion" and sink.symbol == "app.agent.delete"
    assert one(sites, SiteKind.TOOL_REGISTRATION, line_of(source, "READ")).attr(
        "tool_name") == "read"
    assert len(sites) == 4


def test_decoys_are_not_classified():
    source = '''
    from otherlib import AsyncAMIClient
    from otherlib.atoms import state
    from app.registry import tool

    def decide(decision_point, context):
        return None

    @tool("refund")
    def refund():
        return state("refund.amount", 1)

    async def main():
        decide(decision_point="refund.approve", context=[state("a.b", 1)])
        await AsyncAMIClient().decide(decision_point="refund.approve")
        client = AsyncAMIClient()
        await client.emit_event(None)
    '''
    assert sites_in(source) == ()


def test_legacy_ami_imports_are_memrail():
    source = '''
    import ami
    from ami.atoms import state as s

    client = ami.AMIClient()
    client.decide(decision_point="legacy.dp", context=[s("order.total", 10)])  # DECIDE
    '''
    sites = sites_in(source)
    decide = one(sites, SiteKind.DECISION_CALL, line_of(source, "DECIDE"))
    assert decide.system == "memrail" and decide.attr("callee") == "ami.AMIClient.decide"
    [atom] = by_kind(sites, SiteKind.ATOM)
    assert atom.attr("key") == "order.total" and decide.attr("atoms") == (atom.attr("call"),)


def test_unshadowed_builtins_are_code_execution_sinks():
    source = '''
    def run(code):
        eval(code)  # EVAL

    def exec(text):
        return text

    def other(code):
        exec(code)
    '''
    [site] = sites_in(source)
    assert site.location.line == line_of(source, "EVAL")
    assert site.attr("callee") == "builtins.eval" and site.attr("tier") == "code_execution"


def test_langchain_and_agents_tools():
    source = '''
    from agents import function_tool
    from langchain_core.tools import BaseTool, tool

    @tool
    def lookup(order_id: str) -> str:  # LOOKUP
        return order_id

    @function_tool(needs_approval=True)
    def refund(order_id: str) -> str:  # REFUND
        return order_id

    class CancelTool(BaseTool):  # CANCEL
        name: str = "cancel_order"
    '''
    sites = sites_in(source)
    assert one(sites, SiteKind.TOOL_REGISTRATION, line_of(source, "LOOKUP")).attr(
        "tool_name") == "lookup"
    refund_line = line_of(source, "REFUND")
    assert one(sites, SiteKind.TOOL_REGISTRATION, refund_line).attr("needs_approval") is True
    gate = one(sites, SiteKind.APPROVAL_GATE, refund_line)
    assert gate.attr("enforced") is True and gate.symbol == "app.agent.refund"
    cancel = one(sites, SiteKind.TOOL_REGISTRATION, line_of(source, "CANCEL"))
    assert cancel.attr("tool_name") == "cancel_order" and cancel.symbol == "app.agent.CancelTool"
    assert len(sites) == 4


def test_unparseable_file_yields_no_sites():
    broken = parse("def broken(:\n    pass\n")
    assert broken.parse_error is not None and classify([broken]) == ()
