"""From parsed files to classified facts: sites, edges and the flows behind them.

This is the analyzers' one entry point after the per-file stage: rule packs classify calls,
the call graph joins files, label propagation follows model output, atoms and authority, and
derived sites and role edges are computed from those.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from topo.analyzers.flow.approval_predicates import mark_approval_predicates
from topo.analyzers.flow.named_approvals import mark_named_approvals
from topo.analyzers.flow.callgraph import CallGraph, build_call_graph, function_key
from topo.analyzers.discovery.configs import ConfigFacts
from topo.analyzers.flow.dataflow import (Flow, FlowIndex, Seeds, flow_index, propagate,
                                          propagate_apart)
from topo.analyzers.flow.graphs import StateGraphs, breakpoint_sites, read_state_graphs
from topo.analyzers.flow.intent import IntentInput, intent_executors
from topo.analyzers.flow.derived import (CONTROL_KINDS, DerivedInput, derived_sites,
                                         mark_conditional_atoms)
from topo.analyzers.ir import FileIR
from topo.analyzers.flow.policy_gates import PolicyInput, policy_gates
from topo.analyzers.flow.resolution import resolve_files
from topo.analyzers.packs import (Knowledge, Pack, classify, factories, generic_attributes,
                                  load_packs, wrappers)
from topo.analyzers.flow.dispatched_tools import split_dispatching
from topo.analyzers.flow.entrypoints import entry_points
from topo.analyzers.flow.tool_names import named_by_placement
from topo.analyzers.flow.roles import RoleInput, role_edges
from topo.analyzers.flow.routes import model_routes
from topo.analyzers.model import Edge, Site, SiteKind

__all__ = ["SourceFacts", "source_facts"]

# The receiver of a method is never model input (framework-injected parameters are pack data).
_RECEIVERS = frozenset({"self", "cls"})


def _shipped_knowledge() -> Knowledge:
    return Knowledge.of(load_packs())


@dataclass(frozen=True, slots=True)
class SourceFacts:
    files: tuple[FileIR, ...]
    sites: tuple[Site, ...]
    edges: tuple[Edge, ...]
    graph: CallGraph
    model: Flow
    atoms: Flow
    authority: Flow
    memory: Flow | None = None    # labels: memory read / prompt policy site ids
    configs: ConfigFacts = ConfigFacts()   # env settings and MCP servers (discovery/configs.py)
    # What the run's packs say beyond sites (injected parameters, approval attributes,
    # identity and retention rules, fingerprints), for the checks.
    knowledge: Knowledge = field(default_factory=_shipped_knowledge)
    state_graphs: StateGraphs = StateGraphs()   # graphs of nodes sharing a state (graphs.py)
    policy: Flow | None = None    # labels: flag and environment reads (config_gate site ids)
    # The statements of `files` indexed for propagation, for the checks' own flows.
    flow_index: FlowIndex | None = field(default=None, compare=False, repr=False)


def source_facts(files: Iterable[FileIR], packs: tuple[Pack, ...] | None = None,
                 public_names: Iterable[tuple[str, str]] = ()) -> SourceFacts:
    """The facts of `files` under `packs` (None: the shipped packs). `public_names` name
    workspace packages' entry modules by their package (`ProjectLayout.public_names`)."""
    files = tuple(sorted(files, key=lambda f: f.path))
    packs = load_packs() if packs is None else packs
    knowledge = Knowledge.of(packs)
    written = {call.id: call.callee for file in files for call in file.calls}
    files = resolve_files(files, factories(packs), generic_attributes(packs), wrappers(packs))
    graph = build_call_graph(files)
    named = named_by_placement(files, classify(files, packs, public_names, written), packs)
    pack_sites = model_routes(files, split_dispatching(files, named, graph.definitions), graph,
                              knowledge)
    pack_sites = mark_approval_predicates(files, graph, pack_sites, knowledge)
    pack_sites = mark_named_approvals(files, pack_sites, knowledge)
    state_graphs = read_state_graphs(files, graph, knowledge.state_graphs)
    pack_sites = (*pack_sites, *breakpoint_sites(state_graphs, pack_sites,
                                                 knowledge.state_graphs.system))
    pack_sites = entry_points(files, pack_sites, graph, knowledge)
    index = flow_index(files, graph)      # both propagations read the program alike
    model = propagate(files, graph, _model_seeds(pack_sites, graph, knowledge, state_graphs),
                      index)
    # Only enforced authority: a Mubit handoff's verdict (another agent's answer) is no gate.
    # Authority that is not a model (flags, environment switches) selects effects and
    # approves nothing a model proposes, so it is a flow of its own (flow/policy_gates.py).
    policy_seeds = _seed_calls(pack_sites, {SiteKind.CONFIG_GATE})
    flows = propagate_apart(files, graph, {
        "atoms": _seed_calls(pack_sites, {SiteKind.ATOM}),
        "authority": _seed_calls((s for s in pack_sites if s.attr("enforced") is not False),
                                 {SiteKind.DECISION_CALL, SiteKind.APPROVAL_GATE}),
        "policy": policy_seeds,
        "memory": _seed_calls(pack_sites, {SiteKind.MEMORY_READ, SiteKind.PROMPT_POLICY})},
        index)
    atoms, authority, memory = flows["atoms"], flows["authority"], flows["memory"]
    policy = flows["policy"] if policy_seeds else None
    sites = (*mark_conditional_atoms(files, pack_sites),
             *derived_sites(DerivedInput(files, pack_sites, model)),
             *policy_gates(PolicyInput(files, pack_sites, model, memory,
                                       knowledge.policy_reads)),
             *intent_executors(IntentInput(files, pack_sites, graph, knowledge)))
    sites = tuple(sorted(sites, key=lambda s: s.id))
    edges = role_edges(RoleInput(files, sites, graph, model, atoms, authority, memory,
                                 knowledge, policy))
    return SourceFacts(files, sites, edges, graph, model, atoms, authority, memory,
                       knowledge=knowledge, state_graphs=state_graphs, policy=policy,
                       flow_index=index)


def _seed_calls(sites: Iterable[Site], kinds: set[SiteKind]) -> dict[str, frozenset[str]]:
    seeds: dict[str, frozenset[str]] = {}
    for site in sites:
        call = site.attr("call")
        if site.kind in kinds and isinstance(call, str):
            seeds[call] = seeds.get(call, frozenset()) | {site.id}
    return seeds


def _model_seeds(sites: tuple[Site, ...], graph: CallGraph, knowledge: Knowledge,
                 state_graphs: StateGraphs) -> Seeds:
    """Inference results, and the parameters of tools a model invokes (the model fills them,
    but for the ones the framework injects). A governed tool's arguments come from policy.
    Model output follows graph state channels; approvals and atoms do not (a human's answer
    stored in the state is content, not a gate on every later node)."""
    parameters: dict[str, dict[str, frozenset[str]]] = {}
    for tool in sites:
        if tool.kind is not SiteKind.TOOL_REGISTRATION or knowledge.governed(tool):
            continue
        found = graph.definitions.get(str(tool.attr("definition")))
        if found is None:
            continue
        file, definition = found
        key = function_key(file, definition.qualname)
        # A handler serving every tool (flow/dispatched_tools.py): its arguments come from
        # whichever tool is called; the chain keeps the one whose branch it passes.
        shared = parameters.get(key, {}) if tool.attr("dispatch_case") else {}
        parameters[key] = {p.name: shared.get(p.name, frozenset()) | {tool.id}
                           for p in definition.parameters
                           if p.name not in _RECEIVERS
                           and not knowledge.injected(p.name, p.annotation)}
    # A guardrail listed in an agent's options (`verdict_key`: its verdict is what its own
    # function returns) makes the agent's constructor no control call.
    barriers = frozenset(str(s.attr("call")) for s in sites
                         if s.kind in CONTROL_KINDS and s.attr("call")
                         and not (s.kind.declares("verdict_key") and s.attr("verdict_key")))
    return Seeds(calls=_seed_calls(sites, {SiteKind.INFERENCE}), parameters=parameters,
                 barriers=barriers, graphs=state_graphs)
