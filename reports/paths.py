"""A finding's path (site ids, proposal → effect) as the graph edges that draw it.

Checks record the sites a path passes through; between two of them the graph may hold a direct
edge, or go through one node the finding does not name (a dispatcher executes a function that
contains the executor). Views highlight those edges; a step with neither is a `path` step the
views draw as the finding's own connector, never as a graph edge.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PathStep", "PathLinks", "path_steps", "path_links", "outgoing"]


@dataclass(frozen=True, slots=True)
class PathStep:
    source: str
    target: str
    edges: tuple[int, ...]       # indexes into graph["edges"]; empty: no drawn edge
    via: tuple[str, ...] = ()    # intermediate nodes the edges pass through


def outgoing(graph: dict) -> dict[str, list[int]]:
    """Each node's outgoing edges (indexes into graph["edges"]): build once, pass to many."""
    out: dict[str, list[int]] = {}
    for number, edge in enumerate(graph["edges"]):
        out.setdefault(edge["source"], []).append(number)
    return out


def path_steps(graph: dict, path: list[str], out: dict[str, list[int]] | None = None
               ) -> list[PathStep]:
    """The steps between consecutive path nodes, each with the edges that connect them."""
    out = outgoing(graph) if out is None else out
    edges = graph["edges"]
    steps = []
    for source, target in zip(path, path[1:]):
        direct = [n for n in out.get(source, []) if edges[n]["target"] == target]
        if direct:
            steps.append(PathStep(source, target, tuple(direct)))
            continue
        hops = [(first, second) for first in out.get(source, [])
                for second in out.get(edges[first]["target"], [])
                if edges[second]["target"] == target]
        if hops:
            first, second = hops[0]
            steps.append(PathStep(source, target, (first, second), (edges[first]["target"],)))
        else:
            steps.append(PathStep(source, target, ()))
    return steps


@dataclass(frozen=True, slots=True)
class PathLinks:
    """How a view draws a whole path: graph edges, passing nodes, and its own connectors."""

    edges: tuple[int, ...]                   # indexes into graph["edges"]
    via: tuple[str, ...]                     # nodes those edges pass through, off the path
    connectors: tuple[tuple[str, str], ...]  # (source, target) pairs no graph edge draws


def path_links(graph: dict, path: list[str], kinds: dict[str, str], *,
               hops: bool = True, out: dict[str, list[int]] | None = None) -> PathLinks:
    """Every graph edge from a path node to a later one; for a node with none, the two-edge
    hop to the next node (unless `hops` is off: a view of the path nodes only), else a connector to the next node of another kind (`kinds`: node →
    kind). A path lists alternative origins side by side, each leading on to the gate or
    effect after them, never to its sibling."""
    out = outgoing(graph) if out is None else out
    later = {node: i for i, node in enumerate(path)}
    edges = [n for node in later for n in out.get(node, ())
             if later.get(graph["edges"][n]["target"], -1) > later[node]]
    leads = {graph["edges"][n]["source"] for n in edges}
    via: list[str] = []
    connectors: list[tuple[str, str]] = []
    steps = path_steps(graph, path, out)
    for i, (node, step) in enumerate(zip(path, steps)):
        if node in leads:
            continue
        if step.via and hops:
            edges += step.edges
            via += step.via
            continue
        target = next((t for t in path[i + 1:] if kinds.get(t) != kinds.get(node)),
                      path[i + 1])
        connectors.append((node, target))
    return PathLinks(tuple(sorted(set(edges))), tuple(dict.fromkeys(via)), tuple(connectors))
