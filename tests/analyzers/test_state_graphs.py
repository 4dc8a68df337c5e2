"""State graphs read from their builders, and model output following state channels."""

from __future__ import annotations

import textwrap

from topo.analyzers.flow.facts import source_facts
from topo.analyzers.flow.graphs import ANY, END
from topo.analyzers.model import SiteKind
from topo.analyzers.packs import factories
from topo.analyzers.python.frontend import parse_python
from topo.analyzers.typescript.frontend import parse_typescript

PYTHON = '''
from typing import TypedDict
from langgraph.graph import StateGraph, START, END
from langgraph.types import Command
from openai import OpenAI

client = OpenAI()

class State(TypedDict):
    to: str
    draft: str

def draft(state: State) -> dict:
    resp = client.chat.completions.create(model="gpt-4o", messages=[])
    return {"draft": resp.choices[0].message.content}

def review(state: State):
    if state["to"] == "ops":
        return Command(goto="send")
    return Command(goto=END)

def route(state):
    if state.get("draft") == "skip":
        return END
    return "review"

def send(state: State):
    return {}

builder = StateGraph(State)
builder.add_node("draft", draft)
builder.add_node(review)
builder.add_node("send", send)
builder.add_edge(START, "draft")
builder.add_conditional_edges("draft", route)
'''

TYPESCRIPT = '''
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";

const S = Annotation.Root({ post: Annotation<string>, channel: Annotation<string> });

async function draft(state: typeof S.State) {
  const r = await new ChatOpenAI({}).invoke("x");
  return { post: r.content };
}
function humanNode<A, B>(state: A): B { return {} as B; }
function route(state: typeof S.State) {
  const { post, channel } = state;
  if (post.length > 280) { return "draft"; }
  if (channel === "ops") { return "human"; }
  return END;
}

export const graph = new StateGraph(S)
  .addNode("draft", draft)
  .addNode("human", humanNode<typeof S.State, unknown>)
  .addEdge(START, "draft")
  .addConditionalEdges("draft", route, ["draft", "human", END])
  .compile();
'''


def _python():
    file = parse_python("app.py", textwrap.dedent(PYTHON), "app", strict=True,
                        factories=factories())
    return source_facts([file])


def _typescript():
    return source_facts([parse_typescript("src/app.ts", TYPESCRIPT, "src/app", strict=True)])


def test_python_builder_nodes_edges_routers_and_commands() -> None:
    (graph,) = _python().state_graphs.graphs
    assert dict(graph.nodes) == {"draft": "app.draft", "review": "app.review",
                                 "send": "app.send"}
    successors = dict(graph.successors)
    assert set(successors["draft"]) == {END, "review"}     # the router's spelt returns
    assert set(successors["review"]) == {END, "send"}      # Command(goto=...)
    assert graph.routers == (("draft", "app.route"),)


def test_typescript_chained_builder_and_generic_node() -> None:
    (graph,) = _typescript().state_graphs.graphs
    assert dict(graph.nodes) == {"draft": "src/app.draft", "human": "src/app.humanNode"}
    assert set(dict(graph.successors)["draft"]) == {"draft", "human", END}   # the path map
    assert ANY not in dict(graph.successors)["draft"]


def test_a_channel_is_model_output_only_under_its_own_key() -> None:
    facts = _python()
    branches = {site.location.line: site for site in facts.sites
                if site.kind is SiteKind.MODEL_BRANCH}
    # `state.get("draft")` in the router reads the model-written channel ...
    assert 23 in branches and branches[23].symbol == "app.route"
    # ... and `state["to"]`, which no node writes from a model, is no model test.
    assert 18 not in branches


def test_typescript_destructured_channels_stay_apart() -> None:
    facts = _typescript()
    tests = {site.location.line: site.kind for site in facts.sites
             if site.kind in (SiteKind.THRESHOLD, SiteKind.MODEL_BRANCH)}
    assert tests == {14: SiteKind.THRESHOLD}     # `post.length > 280`, not `channel === "ops"`


def test_a_barrier_result_subscript_does_not_take_its_arguments_labels() -> None:
    source = '''
import { Annotation, StateGraph, interrupt } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";

const S = Annotation.Root({ post: Annotation<string> });

async function draft(state: typeof S.State) {
  const r = await new ChatOpenAI({}).invoke("x");
  return { post: r.content };
}
async function review(state: typeof S.State) {
  const request = { args: { post: state.post } };
  const response = interrupt<unknown[], any[]>([request])[0];
  if (response.verdict === "yes") { return { next: "send" }; }
  if (request.args.post === "") { return { next: "draft" }; }
  return {};
}
new StateGraph(S).addNode("draft", draft).addNode("review", review);
'''
    facts = source_facts([parse_typescript("src/app.ts", source, "src/app", strict=True)])
    lines = {site.location.line for site in facts.sites if site.kind is SiteKind.MODEL_BRANCH}
    assert lines == {15}     # the request shows the model's post; the human's answer is fresh


def test_odd_builder_calls_read_without_error() -> None:
    source = '''
from langgraph.graph import StateGraph, END
from langgraph.types import Command

NODES = []
builder = StateGraph(dict)
builder.add_node()
builder.add_node(*NODES)
builder.add_node("inline", lambda state: {"seen": state["x"]})
builder.add_edge("inline")
builder.add_conditional_edges()
builder.add_conditional_edges("inline", **{})
builder.add_node("jump", lambda state: Command(goto=state["next"]))
other = StateGraph(dict).add_node("solo", print).compile()
'''
    file = parse_python("app.py", textwrap.dedent(source), "app", strict=True,
                        factories=factories())
    facts = source_facts([file])
    (graph,) = [g for g in facts.state_graphs.graphs if "inline" in dict(g.nodes)]
    assert set(dict(graph.nodes)) == {"inline", "jump"}
    assert dict(graph.nodes)["inline"] is not None      # a lambda node is its synthetic def


def test_send_fans_out_to_its_node_with_the_state_it_writes() -> None:
    source = '''
from langgraph.graph import StateGraph, START
from langgraph.types import Send
from openai import OpenAI

client = OpenAI()

def plan(state):
    resp = client.chat.completions.create(model="gpt-4o", messages=[])
    return {"topics": resp.choices[0].message.content}

def fan_out(state):
    sends = []
    for topic in state["topics"]:
        sends.append(Send("write", {"topic": topic}))
    return sends

def write(state):
    if state["topic"] == "refunds":
        return {"done": True}
    return {}

builder = StateGraph(dict)
builder.add_node("plan", plan)
builder.add_node("write", write)
builder.add_edge(START, "plan")
builder.add_conditional_edges("plan", fan_out)
'''
    file = parse_python("app.py", textwrap.dedent(source), "app", strict=True,
                        factories=factories())
    facts = source_facts([file])
    (graph,) = facts.state_graphs.graphs
    assert dict(graph.successors)["plan"] == ("write",)
    branches = {site.location.line for site in facts.sites if site.kind is SiteKind.MODEL_BRANCH}
    line = textwrap.dedent(source).splitlines().index('    if state["topic"] == "refunds":') + 1
    assert line in branches    # `state["topic"]`, written by the Send from model topics


def test_methods_of_the_class_that_builds_the_graph_are_its_nodes() -> None:
    source = '''
from langgraph.graph import StateGraph, START
from openai import OpenAI

class Outreach:
    def __init__(self):
        self.client = OpenAI()

    def draft(self, state):
        resp = self.client.chat.completions.create(model="gpt-4o", messages=[])
        return {"draft": resp.choices[0].message.content}

    def send(self, state):
        if state["draft"] == "":
            return {}
        return {"sent": True}

    def build(self):
        builder = StateGraph(dict)
        builder.add_node("draft", self.draft)
        builder.add_node("send", self.send)
        builder.add_edge(START, "draft")
        builder.add_edge("draft", "send")
        return builder.compile()
'''
    file = parse_python("app.py", textwrap.dedent(source), "app", strict=True,
                        factories=factories())
    facts = source_facts([file])
    (graph,) = facts.state_graphs.graphs
    assert dict(graph.nodes) == {"draft": "app.Outreach.draft", "send": "app.Outreach.send"}
    assert any(site.kind is SiteKind.MODEL_BRANCH and site.symbol == "app.Outreach.send"
               for site in facts.sites)


def test_a_builder_named_after_a_chain_keeps_its_steps() -> None:
    source = '''
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
const S = Annotation.Root({ post: Annotation<string> });
async function draft(state: typeof S.State) { return { post: "x" }; }
async function send(state: typeof S.State) { return {}; }
const builder = new StateGraph(S).addNode("draft", draft).addEdge(START, "draft");
builder.addNode("send", send);
builder.addEdge("draft", "send");
export const graph = builder.compile();
'''
    facts = source_facts([parse_typescript("src/app.ts", source, "src/app", strict=True)])
    (graph,) = facts.state_graphs.graphs
    assert set(dict(graph.nodes)) == {"draft", "send"}
    assert dict(graph.successors)["draft"] == ("send",)


def test_static_breakpoints_are_one_human_approval_site_each() -> None:
    source = '''
from langgraph.graph import StateGraph, START

def draft(state):
    return {}

builder = StateGraph(dict)
builder.add_node("draft", draft)
paused = builder.compile(interrupt_before=["draft"])
chained = StateGraph(dict).add_node("draft", draft).compile(interrupt_after=["draft"])
'''
    file = parse_python("app.py", textwrap.dedent(source), "app", strict=True,
                        factories=factories())
    gates = sorted((site.location.line, site.attr("interrupt_before"),
                    site.attr("interrupt_after"))
                   for site in source_facts([file]).sites
                   if site.kind is SiteKind.APPROVAL_GATE)
    assert gates == [(9, ("draft",), None), (10, None, ("draft",))]
