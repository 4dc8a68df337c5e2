"""From parsed files to classified facts: sites, edges and the flows behind them.

This is the analyzers' one entry point after the per-file stage: rule packs classify calls,
the call graph joins files, label propagation follows model output, atoms and authority, and
derived sites and role edges are computed from those.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import CallGraph, build_call_graph, function_key
from topo.analyzers.discovery.configs import ConfigFacts
from topo.analyzers.flow.dataflow import Flow, Seeds, propagate
from topo.analyzers.flow.derived import CONTROL_KINDS, DerivedInput, derived_sites, mark_conditional_atoms
from topo.analyzers.ir import FileIR
from topo.analyzers.packs import Pack, classify
from topo.analyzers.flow.roles import RoleInput, role_edges
from topo.analyzers.model import Edge, Site, SiteKind

__all__ = ["SourceFacts", "source_facts", "MODEL_FILLED_FRAMEWORK_EXCLUDED"]

# Tools whose arguments come from policy (EMU action args), not from a model.
MODEL_FILLED_FRAMEWORK_EXCLUDED = frozenset({"memrail"})
_NOT_MODEL_PARAMETERS = frozenset({"self", "cls", "ctx", "context", "run_context", "config",
                                   "runtime", "state"})
_CONTEXT_ANNOTATIONS = ("RunContext", "Context", "RunnableConfig", "ToolRuntime")


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
    configs: ConfigFacts = ConfigFacts()   # env settings and MCP servers (analyzers/configs.py)


def source_facts(files: Iterable[FileIR], packs: tuple[Pack, ...] | None = None) -> SourceFacts:
    files = tuple(sorted(files, key=lambda f: f.path))
    pack_sites = classify(files, packs)
    graph = build_call_graph(files)
    model = propagate(files, graph, _model_seeds(pack_sites, graph))
    atoms = propagate(files, graph, Seeds(calls=_seed_calls(pack_sites, {SiteKind.ATOM})))
    # Only enforced authority: a Mubit handoff's verdict (another agent's answer) is no gate.
    authority = propagate(files, graph, Seeds(calls=_seed_calls(
        (s for s in pack_sites if s.attr("enforced") is not False),
        {SiteKind.DECISION_CALL, SiteKind.APPROVAL_GATE, SiteKind.CONFIG_GATE})))
    memory = propagate(files, graph, Seeds(calls=_seed_calls(
        pack_sites, {SiteKind.MEMORY_READ, SiteKind.PROMPT_POLICY})))
    sites = (*mark_conditional_atoms(files, pack_sites),
             *derived_sites(DerivedInput(files, pack_sites, model)))
    sites = tuple(sorted(sites, key=lambda s: s.id))
    edges = role_edges(RoleInput(files, sites, graph, model, atoms, authority, memory))
    return SourceFacts(files, sites, edges, graph, model, atoms, authority, memory)


def _seed_calls(sites: Iterable[Site], kinds: set[SiteKind]) -> dict[str, frozenset[str]]:
    seeds: dict[str, frozenset[str]] = {}
    for site in sites:
        call = site.attr("call")
        if site.kind in kinds and isinstance(call, str):
            seeds[call] = seeds.get(call, frozenset()) | {site.id}
    return seeds


def _model_seeds(sites: tuple[Site, ...], graph: CallGraph) -> Seeds:
    """Inference results, and the parameters of tools a model invokes (the model fills them)."""
    parameters: dict[str, dict[str, frozenset[str]]] = {}
    for tool in sites:
        if tool.kind is not SiteKind.TOOL_REGISTRATION or \
                tool.system in MODEL_FILLED_FRAMEWORK_EXCLUDED:
            continue
        found = graph.definitions.get(str(tool.attr("definition")))
        if found is None:
            continue
        file, definition = found
        key = function_key(file, definition.qualname)
        parameters[key] = {p.name: frozenset({tool.id}) for p in definition.parameters
                           if p.name not in _NOT_MODEL_PARAMETERS
                           and not any(a in (p.annotation or "") for a in _CONTEXT_ANNOTATIONS)}
    barriers = frozenset(str(s.attr("call")) for s in sites
                         if s.kind in CONTROL_KINDS and s.attr("call"))
    return Seeds(calls=_seed_calls(sites, {SiteKind.INFERENCE}), parameters=parameters,
                 barriers=barriers)
