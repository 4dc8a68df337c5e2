"""A finding's path (site ids, proposal → effect) as the graph edges that draw it.

Checks record the sites a path passes through; between two of them the graph may hold a direct
edge, or go through one node the finding does not name (a dispatcher executes a function that
contains the executor). Views highlight those edges; a step with neither is a `path` step the
views draw as the finding's own connector, never as a graph edge.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PathStep", "path_steps"]


@dataclass(frozen=True, slots=True)
class PathStep:
    source: str
    target: str
    edges: tuple[int, ...]       # indexes into graph["edges"]; empty: no drawn edge
    via: tuple[str, ...] = ()    # intermediate nodes the edges pass through


def path_steps(graph: dict, path: list[str]) -> list[PathStep]:
    """The steps between consecutive path nodes, each with the edges that connect them."""
    out: dict[str, list[int]] = {}
    for number, edge in enumerate(graph["edges"]):
        out.setdefault(edge["source"], []).append(number)
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
