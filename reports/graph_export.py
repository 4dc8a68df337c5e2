"""`topo graph -f dot|json|graphml`: the authority graph for other tools.

Attributes are flattened to strings, numbers and booleans (GraphML and DOT know nothing
richer); a site node carries its kind, system, file, symbol, line and pack attributes.
Output is deterministic: nodes and edges in sorted order.
"""

from __future__ import annotations

import io
import json

import networkx as nx

from topo.audit.graph.build import EVIDENCE, INFERRED, KIND, SITE

__all__ = ["FORMATS", "render_graph"]

FORMATS = ("dot", "json", "graphml")


def render_graph(graph: nx.MultiDiGraph, fmt: str) -> str:
    flat = _flatten(graph)
    match fmt:
        case "json":
            return json.dumps(_node_link(flat), indent=2, sort_keys=True) + "\n"
        case "graphml":
            buffer = io.BytesIO()
            nx.write_graphml(flat, buffer, encoding="utf-8", prettyprint=True)
            return buffer.getvalue().decode("utf-8")
        case "dot":
            return _dot(flat)
    raise ValueError(f"unknown graph format {fmt!r}")


def _flatten(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    flat = nx.MultiDiGraph()
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        attrs: dict[str, object] = {"kind": str(data.get(KIND, "")),
                                    "inferred": bool(data.get(INFERRED))}
        evidence = data.get(EVIDENCE)
        if evidence:
            attrs.update(file=str(evidence[0]), symbol=str(evidence[1] or ""),
                         line=int(evidence[2] or 0))
        site = data.get(SITE)
        if site is not None:
            attrs.update(site_kind=site.kind.value, system=site.system,
                         inferred=bool(site.inferred))
            for key, value in site.attrs:
                attrs[f"attr_{key}"] = _scalar(value)
        flat.add_node(node, **attrs)
    edges = sorted(graph.edges(data=True), key=lambda e: (e[0], e[1], str(sorted(e[2].items()))))
    for source, target, data in edges:
        flat.add_edge(source, target, **{k: _scalar(v) for k, v in sorted(data.items())})
    return flat


def _scalar(value: object) -> object:
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return "" if value is None else str(value)


def _node_link(graph: nx.MultiDiGraph) -> dict:
    return {"schema": "topo-graph/1",
            "nodes": [{"id": n, **graph.nodes[n]} for n in graph.nodes],
            "edges": [{"source": s, "target": t, **d} for s, t, d in graph.edges(data=True)]}


def _dot(graph: nx.MultiDiGraph) -> str:
    lines = ["digraph topo {", "  rankdir=LR;", "  node [shape=box, fontsize=10];"]
    for node, data in graph.nodes(data=True):
        label = f"{data.get('site_kind') or data.get('kind')}\\n{data.get('symbol', node)}"
        lines.append(f"  {_quote(node)} [label={_quote(label, escaped=True)}];")
    for source, target, data in graph.edges(data=True):
        lines.append(f"  {_quote(source)} -> {_quote(target)} "
                     f"[label={_quote(str(data.get('kind', '')))}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _quote(text: str, *, escaped: bool = False) -> str:
    body = text.replace('"', '\\"') if escaped else text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{body}"'
