"""What of the graph a report shows beside the role edges: its non-site nodes and structural
relations, leaving out functions no edge names (every definition would swamp a large
repository's report). The pipeline asks once per run (`AuditResult.nodes`, `.relations`), for
the document, the decision contracts and the placement.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from topo.analyzers.model import Edge
from topo.audit.graph.build import EVIDENCE, INFERRED, KIND

__all__ = ["Node", "Relation", "drawn_functions", "shown_nodes", "shown_relations"]


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    kind: str
    file: str | None
    symbol: str | None
    line: int | None
    inferred: bool


@dataclass(frozen=True, slots=True, order=True)
class Relation:
    source: str
    target: str
    kind: str
    inferred: bool


def drawn_functions(graph: nx.MultiDiGraph, edges: tuple[Edge, ...]) -> frozenset[str]:
    """The function nodes some role or call edge names."""
    kinds = dict(graph.nodes(data=KIND))     # each node's kind read once, not per edge end
    return frozenset(node for edge in edges for pair in edge.pairs() for node in pair
                     if kinds.get(node) == "function")


def shown_nodes(graph: nx.MultiDiGraph, edges: tuple[Edge, ...]) -> tuple[Node, ...]:
    """The graph's nodes that are not sites: decision points, EMUs, events, tools, and the
    functions an edge names; sorted by id."""
    functions = drawn_functions(graph, edges)
    nodes = []
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        kind = data.get(KIND)
        if kind == "site" or (kind == "function" and node not in functions):
            continue
        file, symbol, line = data.get(EVIDENCE) or (None, None, None)
        nodes.append(Node(node, kind, file, symbol, line, bool(data.get(INFERRED))))
    return tuple(nodes)


def shown_relations(graph: nx.MultiDiGraph, edges: tuple[Edge, ...]) -> tuple[Relation, ...]:
    """The graph's structural edges (contains, consumes, binds, emits, registers, EMU → tool)
    that `edges` does not already hold, between shown nodes; sorted."""
    listed = {(source, target, e.kind.value) for e in edges for source, target in e.pairs()}
    functions = drawn_functions(graph, edges)
    hidden = {node for node, kind in graph.nodes(data=KIND)
              if kind == "function" and node not in functions}
    relations = set()
    for source, target, data in graph.edges(data=True):
        key = (source, target, str(data.get(KIND)))
        if key in listed or source in hidden or target in hidden:
            continue
        relations.add(Relation(*key, bool(data.get(INFERRED))))
    return tuple(sorted(relations))
