"""Mubit framework adapters, Mubit advisory policy writes and MemoRizz builder registrations,
through the real front-ends and the shipped packs (seeds 002 and 004). Each test also carries
a collision decoy: the same method names on a local or unrelated object give no site."""

from __future__ import annotations

import textwrap

from topo.analyzers.packs import classify, factories
from topo.analyzers.python import parse_python
from topo.analyzers.typescript.frontend import parse_typescript
from topo.analyzers.model import SiteKind

FACTORIES = factories()   # the shipped packs' factories, for the Python front-end


def _py(source: str):
    return classify([parse_python("app/agent.py", textwrap.dedent(source), "app.agent",
                                  strict=True, factories=FACTORIES)])


def _ts(source: str):
    return classify([parse_typescript("app/agent.ts", textwrap.dedent(source), "app.agent")])


def _line(source: str, marker: str) -> int:
    lines = textwrap.dedent(source).splitlines()
    [line] = [i for i, text in enumerate(lines, 1)
              if text.rstrip().endswith((f"# {marker}", f"// {marker}"))]
    return line


def _at(sites, kind: SiteKind, line: int):
    return [s for s in sites if s.kind is kind and s.location.line == line]


def _one(sites, kind: SiteKind, line: int):
    found = _at(sites, kind, line)
    assert len(found) == 1, f"{kind} at {line}: {found}"
    return found[0]


ADAPTERS = '''
from mubit_crewai import MubitCrewMemory
from mubit_langgraph import MubitStore
from mubit_langchain import MubitChatMemory, MubitLessonRetriever
from mubit_llama_index import MubitChatMemoryBuffer
from mubit_adk import MubitMemoryService
from mubit_agno import MubitAgnoMemory
from mubit_autogen import MubitMemory

crew_mem = MubitCrewMemory(api_key="k", session_id="crew-1")
crew = Crew(memory=crew_mem.as_crew_memory())  # CREW
store = MubitStore(api_key="k")  # STORE
chat = MubitChatMemory(api_key="k", session_id="chat-1")
context = chat.load_memory_variables({"input": "q"})  # LOAD
chat.save_context({"input": "q"}, {"output": "a"})  # SAVE
docs = MubitLessonRetriever(api_key="k").get_relevant_documents("q")  # LESSONS
buffer = MubitChatMemoryBuffer(api_key="k", session_id="s")  # BUFFER
buffer.reset()  # RESET
service = MubitMemoryService(api_key="k")  # ADK
service.handoff(user_id="u", to_agent_id="r", content="c", requested_action="approve")  # HANDOFF
service.record_outcome(app_name="a", user_id="u", reference_id="r", outcome="success")  # OUTCOME
agno = MubitAgnoMemory(api_key="k", session_id="run-1")
db = agno.as_memory_db()  # AGNO_DB
tools = [agno.as_toolkit()]  # AGNO_TOOLS
memory = MubitMemory(api_key="k", session_id="support-1")  # AUTOGEN
memory.add(content)  # AUTOGEN_ADD
memory.clear()  # AUTOGEN_CLEAR
store.delete(("ns",), "key")  # STORE_DELETE
'''


def test_adapters_inject_memory_into_the_framework_model():
    sites = _py(ADAPTERS)
    for marker in ("CREW", "STORE", "LOAD", "LESSONS", "BUFFER", "ADK", "AGNO_DB", "AUTOGEN"):
        site = _one(sites, SiteKind.MEMORY_READ, _line(ADAPTERS, marker))
        assert site.system == "mubit", marker
        assert site.attr("operation") == "inject" and site.attr("implicit") is True, marker
        assert site.attr("exhaustive") is False and site.attr("delivers_rules") is True, marker


def test_adapter_writes_and_deletions():
    sites = _py(ADAPTERS)
    for marker in ("SAVE", "AUTOGEN_ADD"):
        site = _one(sites, SiteKind.MEMORY_WRITE, _line(ADAPTERS, marker))
        assert site.attr("destructive") is False, marker
    for marker in ("RESET", "AUTOGEN_CLEAR", "STORE_DELETE"):
        site = _one(sites, SiteKind.MEMORY_WRITE, _line(ADAPTERS, marker))
        assert site.attr("destructive") is True and site.attr("operation") == "forget", marker


def test_adapter_handoff_is_advisory_and_agno_toolkit_hands_tools_to_the_model():
    sites = _py(ADAPTERS)
    gate = _one(sites, SiteKind.APPROVAL_GATE, _line(ADAPTERS, "HANDOFF"))
    assert gate.attr("enforced") is False and gate.attr("approver") == "model"
    outcome = _one(sites, SiteKind.EVENT_EMIT, _line(ADAPTERS, "OUTCOME"))
    assert outcome.attr("outcome") == "success"
    tools = _one(sites, SiteKind.TOOL_REGISTRATION, _line(ADAPTERS, "AGNO_TOOLS"))
    assert tools.attr("memory_tools") == "agentic"


ADAPTER_DECOYS = '''
from app.memory import MubitStore, MubitMemory


class ChatMemory:
    def reset(self): ...


store = MubitStore()  # DECOY_STORE
store.delete(("ns",), "key")  # DECOY_DELETE
memory = MubitMemory()  # DECOY_MEMORY
memory.clear()  # DECOY_CLEAR
ChatMemory().reset()  # DECOY_RESET
'''


def test_adapter_names_from_elsewhere_are_not_mubit():
    assert _py(ADAPTER_DECOYS) == ()


JS_ADAPTERS = '''
import { MubitStore } from "@mubit-ai/langgraph";
import { mubitMemoryMiddleware } from "@mubit-ai/ai-sdk";

const store = new MubitStore({ apiKey: "k" });  // JS_STORE
await store.delete(["ns"], "key");  // JS_DELETE
const middleware = mubitMemoryMiddleware({ sessionId: "s-1" });  // JS_MIDDLEWARE
const local = { delete: (k) => k };
local.delete("key");  // JS_DECOY
'''


def test_js_adapters():
    sites = _ts(JS_ADAPTERS)
    store = _one(sites, SiteKind.MEMORY_READ, _line(JS_ADAPTERS, "JS_STORE"))
    assert store.attr("operation") == "inject"
    delete = _one(sites, SiteKind.MEMORY_WRITE, _line(JS_ADAPTERS, "JS_DELETE"))
    assert delete.attr("destructive") is True
    middleware = _one(sites, SiteKind.MEMORY_READ, _line(JS_ADAPTERS, "JS_MIDDLEWARE"))
    assert middleware.attr("injection") == "wrapped_model"
    assert _at(sites, SiteKind.MEMORY_WRITE, _line(JS_ADAPTERS, "JS_DECOY")) == []


POLICY = '''
import mubit
from mubit import Client

client = Client(api_key="k")
mubit.set_skill("refund_playbook", "How to refund", skill_type="playbook",
                instructions="Refunds over $500: hand off to Rex for approval.")  # PLAYBOOK
mubit.set_skill("lookup", "Look up a charge", skill_type="tool")  # TOOL_SKILL
client.advanced.create_agent_definition(
    project_id="p", agent_id="triage",
    system_prompt_content="Never refund without approval.")  # AGENT_DEF
client.advanced.create_agent_definition(project_id="p", agent_id="bare")  # AGENT_BARE
'''


def test_playbook_skills_and_agent_definitions_are_advisory_policy():
    sites = _py(POLICY)
    playbook = _one(sites, SiteKind.PROMPT_POLICY, _line(POLICY, "PLAYBOOK") - 1)
    assert playbook.attr("enforced") is False and playbook.attr("policy") == "memory_rule"
    assert "Refunds over $500" in str(playbook.attr("content"))
    assert _at(sites, SiteKind.PROMPT_POLICY, _line(POLICY, "TOOL_SKILL")) == []
    definition = _one(sites, SiteKind.PROMPT_POLICY, _line(POLICY, "AGENT_DEF") - 2)
    assert definition.attr("policy") == "agent_definition" and definition.attr("enforced") is False
    assert definition.attr("agent_id") == '"triage"'
    assert _at(sites, SiteKind.PROMPT_POLICY, _line(POLICY, "AGENT_BARE")) == []


def test_set_skill_from_another_library_is_not_policy():
    decoy = '''
    from skills import set_skill
    set_skill("refund_playbook", "x", skill_type="playbook", instructions="Never refund.")
    '''
    assert _py(decoy) == ()


MEMORIZZ = '''
from memorizz import MemAgentBuilder, governed_tool
from memorizz.long_term.procedural.toolbox import Toolbox


@governed_tool(side_effects=True, requires_approval=True)  # GOVERNED
def create_customer(name: str) -> dict:
    ...


def send_invoice(customer_id: str) -> str:
    ...


toolbox = Toolbox.from_functions([create_customer, send_invoice], agent_id="ops", augment=False)  # FROM_FUNCTIONS
agent = (
    MemAgentBuilder()
    .with_tools([create_customer, send_invoice])  # WITH_TOOLS
    .with_toolbox(toolbox)  # WITH_TOOLBOX
    .build()
)
resume = agent.resume_approval(proposal_id)  # RESUME
quiet = agent.resume_approval(proposal_id, continue_model=False)  # RESUME_QUIET
'''


def test_memorizz_builder_registrations_and_resume_approval():
    sites = _py(MEMORIZZ)
    # each listed plain function is a tool named after it; a function its own
    # `@governed_tool` registers keeps that one registration (and its approval)
    listed = _one(sites, SiteKind.TOOL_REGISTRATION, _line(MEMORIZZ, "FROM_FUNCTIONS"))
    assert listed.system == "memorizz" and listed.attr("tool_name") == "send_invoice"
    assert listed.attr("definition") == "app.agent.send_invoice"
    governed = [s for s in sites if s.kind is SiteKind.TOOL_REGISTRATION
                and s.attr("definition") == "app.agent.create_customer"]
    assert [s.attr("requires_approval") for s in governed] == [True]
    # a builder chain is located where it starts (`MemAgentBuilder()`), one site per step
    chain = _at(sites, SiteKind.TOOL_REGISTRATION, _line(MEMORIZZ, "WITH_TOOLS") - 1)
    assert sorted((str(s.attr("callee")).rsplit(".", 1)[-1], s.attr("tool_name"))
                  for s in chain) == [("with_toolbox", None), ("with_tools", "send_invoice")]
    assert all(s.attr("framework") == "memorizz" for s in chain)
    resume = _one(sites, SiteKind.INFERENCE, _line(MEMORIZZ, "RESUME"))
    assert resume.attr("operation") == "resume_approval" and resume.attr("continue_model") is True
    assert _at(sites, SiteKind.INFERENCE, _line(MEMORIZZ, "RESUME_QUIET")) == []


def test_with_tools_of_another_builder_is_not_memorizz():
    decoy = '''
    from agentkit import AgentBuilder, Toolbox
    toolbox = Toolbox.from_functions([f])
    agent = AgentBuilder().with_tools([f]).with_toolbox(toolbox).build()
    agent.resume_approval(pid)
    '''
    assert _py(decoy) == ()
