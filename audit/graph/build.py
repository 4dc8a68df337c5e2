"""The authority graph: sites, functions, decision points, EMUs, events and tools in one
networkx MultiDiGraph, with the five role edges of seed 000 and the structural ones.

Node ids: site ids (`executor:app/pay.py:12:5`), `function:<module>.<qualname>`,
`decision_point:<name>`, `emu:<key>`, `event:<s.v.o>`, `tool:<name>`.

Attribute names are the constants below, documented once:
- `kind`      node: `site` | `function` | `decision_point` | `emu` | `event` | `tool`;
              edge: an `EdgeKind` value.
- `site_kind` node: the `SiteKind` value of a site node.
- `evidence`  node: `(file, symbol, line)`, or None when the node has no place in the code.
- `inferred`  node and edge: True when a heuristic, not an exact API match, put it there.
- `enforced`  authority edge: False when only the model (or prompt text) decides.
An `inference` edge of the facts (one per consumer, its `origins` listed) is one graph edge
per origin here: queries and `topo graph` see every origin → consumer link.
- `site`      node: the `Site` itself, for checks that need its attributes.

Queries are free functions over the graph, in the style of networkx's algorithms.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import networkx as nx

from topo.analyzers.flow.derived import is_protocol_test
from topo.analyzers.flow.facts import SourceFacts
from topo.analyzers.flow.roles import function_node
from topo.analyzers.model import Edge, EdgeKind, Site, SiteKind
from topo.audit.policy import Emu

__all__ = ["KIND", "SITE_KIND", "EVIDENCE", "INFERRED", "ENFORCED", "SITE", "build_graph",
           "sites_of_kind", "enclosing_function", "callers", "event_node", "emu_node",
           "decision_point_node", "inferred_decision_point_node", "tool_node"]

KIND = "kind"
SITE_KIND = "site_kind"
EVIDENCE = "evidence"
INFERRED = "inferred"
ENFORCED = "enforced"
SITE = "site"


def decision_point_node(name: str) -> str:
    return f"decision_point:{name}"


def emu_node(key: str) -> str:
    return f"emu:{key}"


def event_node(name: str) -> str:
    return f"event:{name}"


def tool_node(name: str) -> str:
    return f"tool:{name}"


def build_graph(facts: SourceFacts, emus: Iterable[Emu] = ()) -> nx.MultiDiGraph:
    """One graph of everything the audit knows; deterministic insertion order."""
    graph = nx.MultiDiGraph()
    for key in sorted(facts.graph.definitions):
        file, definition = facts.graph.definitions[key]
        graph.add_node(function_node(key), **{
            KIND: "function", EVIDENCE: (file.path, key, definition.location.line),
            INFERRED: False})
    for site in facts.sites:
        graph.add_node(site.id, **{KIND: "site", SITE_KIND: site.kind.value, SITE: site,
                                   EVIDENCE: (site.location.file, site.symbol,
                                              site.location.line),
                                   INFERRED: site.inferred})
        _add_site_structure(graph, site)
    for edge in facts.edges:
        _add_edge(graph, edge)
    _add_inferred_decision_points(graph, facts)
    for emu in emus:
        _add_emu(graph, emu)
    return graph


def inferred_decision_point_node(symbol: str) -> str:
    """`decision_point:~app.refunds.handle`: where code decides, with no decision engine."""
    return decision_point_node(f"~{symbol}")


_INFERRED_GATES = frozenset({SiteKind.THRESHOLD, SiteKind.MODEL_BRANCH, SiteKind.DISPATCHER})


def _add_inferred_decision_points(graph: nx.MultiDiGraph, facts: SourceFacts) -> None:
    """Seed 000's A12: where an app has no decision engine, the nearest branch or dispatcher
    before a consequential effect is its decision point, named after the function it sits in.
    Its inputs are the model outputs the gate reads (observation edges)."""
    sites = {site.id: site for site in facts.sites}
    for edge in facts.edges:
        gate = sites.get(edge.source)
        target = sites.get(edge.target)
        decides = (edge.kind is EdgeKind.AUTHORITY and target is not None
                   and target.kind in (SiteKind.EXECUTOR, SiteKind.DISPATCHER)) or \
            (edge.kind is EdgeKind.EXECUTION and gate is not None
             and gate.kind is SiteKind.DISPATCHER)
        if gate is None or gate.kind not in _INFERRED_GATES or not decides or \
                is_protocol_test(gate):
            continue
        node = inferred_decision_point_node(gate.symbol)
        if node not in graph:
            graph.add_node(node, **{KIND: "decision_point", INFERRED: True,
                                    EVIDENCE: (gate.location.file, gate.symbol,
                                               gate.location.line)})
        graph.add_edge(gate.id, node, **{KIND: EdgeKind.BINDS.value, INFERRED: True})
        for origin in gate.attr("origins") or ():
            if origin in graph:
                graph.add_edge(origin, node, **{KIND: EdgeKind.OBSERVATION.value,
                                                INFERRED: True})


def sites_of_kind(graph: nx.MultiDiGraph, *kinds: SiteKind) -> Iterator[Site]:
    """Sites of the given kinds, in id order: `list(sites_of_kind(G, SiteKind.EXECUTOR))`."""
    wanted = {kind.value for kind in kinds}
    # Only the sites found are sorted, not every node of the graph (checks ask ~40 times).
    found = [(node, data[SITE]) for node, data in graph.nodes(data=True)
             if data.get(KIND) == "site" and data[SITE_KIND] in wanted]
    found.sort(key=lambda item: item[0])
    for _, site in found:
        yield site


def enclosing_function(graph: nx.MultiDiGraph, site_id: str) -> str | None:
    """The function node that contains a site (None at module level outside any def)."""
    for source, _, data in graph.in_edges(site_id, data=True):
        if data.get(KIND) == EdgeKind.CONTAINS.value:
            return source
    return None


def callers(graph: nx.MultiDiGraph, function: str) -> Iterator[tuple[str, str]]:
    """(caller function node, call id) for each call into `function`, sorted."""
    found = {(source, data.get("call"))
             for source, _, data in graph.in_edges(function, data=True)
             if data.get(KIND) == EdgeKind.CALLS.value}
    return iter(sorted(found))


def _add_site_structure(graph: nx.MultiDiGraph, site: Site) -> None:
    function = function_node(site.symbol)
    if function in graph:
        graph.add_edge(function, site.id, **{KIND: EdgeKind.CONTAINS.value, INFERRED: False})
    match site.kind:
        case SiteKind.DECISION_CALL if site.attr("decision_point"):
            node = decision_point_node(str(site.attr("decision_point")))
            _ensure(graph, node, "decision_point")
            graph.add_edge(site.id, node, **{KIND: EdgeKind.CONSUMES.value, INFERRED: False})
        case SiteKind.EVENT_EMIT:
            names = site.attr("event_names") or (site.attr("event_name"),)
            for name in names:
                if name:
                    _ensure(graph, event_node(str(name)), "event")
                    graph.add_edge(site.id, event_node(str(name)),
                                   **{KIND: EdgeKind.EMITS.value, INFERRED: site.inferred})
        case SiteKind.TOOL_REGISTRATION if site.attr("tool_name"):
            node = tool_node(str(site.attr("tool_name")))
            _ensure(graph, node, "tool")
            graph.add_edge(site.id, node, **{KIND: EdgeKind.REGISTERS.value, INFERRED: False})
        case SiteKind.ENTRY_POINT if site.attr("definition"):
            # A job, consumer, route or command runs the function: the graph's way in.
            node = function_node(str(site.attr("definition")))
            if node in graph:
                graph.add_edge(site.id, node, **{KIND: EdgeKind.REGISTERS.value,
                                                 INFERRED: site.inferred})


def _add_edge(graph: nx.MultiDiGraph, edge: Edge) -> None:
    """One graph edge per link the edge stands for: an `inference` edge lists its origins
    (topo-audit/2), and the graph keeps one edge from each, without the list, so that a path
    from any origin to the effect is an ordinary graph path (and `topo graph` exports it)."""
    attrs = {key: value for key, value in edge.attrs if key != "origins"}
    for source, target in edge.pairs():
        for node in (source, target):
            if node not in graph:
                _ensure(graph, node, node.split(":", 1)[0])
        inferred = bool(graph.nodes[source].get(INFERRED)) or \
            bool(graph.nodes[target].get(INFERRED))
        graph.add_edge(source, target, **{KIND: edge.kind.value, INFERRED: inferred}, **attrs)


def _add_emu(graph: nx.MultiDiGraph, emu: Emu) -> None:
    node = emu_node(emu.emu_key or f"<no key at {emu.location}>")
    graph.add_node(node, **{KIND: "emu", EVIDENCE: (emu.location.file, emu.emu_key,
                                                    emu.location.line), INFERRED: False})
    if emu.decision_point:
        _ensure(graph, decision_point_node(emu.decision_point), "decision_point")
        graph.add_edge(node, decision_point_node(emu.decision_point),
                       **{KIND: EdgeKind.BINDS.value, INFERRED: False})
    for dependency in emu.dependencies:
        if dependency.kind == "event":
            _ensure(graph, event_node(dependency.key), "event")
            graph.add_edge(event_node(dependency.key), node,
                           **{KIND: EdgeKind.CONSUMES.value, INFERRED: False,
                              "polarity": dependency.polarity})
    tool = (emu.action or {}).get("tool") if isinstance(emu.action, dict) else None
    if isinstance(tool, dict) and isinstance(tool.get("tool_id"), str):
        _ensure(graph, tool_node(tool["tool_id"]), "tool")
        graph.add_edge(node, tool_node(tool["tool_id"]),
                       **{KIND: EdgeKind.EXECUTION.value, INFERRED: False})


def _ensure(graph: nx.MultiDiGraph, node: str, kind: str) -> None:
    if node not in graph:
        graph.add_node(node, **{KIND: kind, EVIDENCE: None, INFERRED: False})
