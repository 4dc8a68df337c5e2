"""Coordinates for the HTML report's inline SVGs: five lanes side by side (observation →
recording, seed 000's edge roles), one horizontal band per project, nodes stacked in their
lane, edges routed through the free space between boxes (`svg_routes`).

Three views of TOPOLOGY_STATE's graph, each a `Layout`:
- `layout_findings`: the union of every finding's steps, each node once — what the page opens
  on, readable at a glance however large the repository;
- `layout_path`: one finding's steps only, one row per step, in its lanes;
- `layout_graph`: the whole graph, drawn only on request; past `COLLAPSE_THRESHOLD` nodes one
  box per (project, lane, file) with a count, edges merged, each finding mapped onto the boxes.
Everything is computed here, deterministically; the template prints numbers and escaped text.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from topo.audit.placement import LANES
from topo.reports.paths import outgoing, path_links
from topo.reports.svg_routes import (BAND_CHARS, BAND_GAP, BAND_HEADER, KIND_CHARS,
                                     LABEL_CHARS, LANE_WIDTH, MARGIN, NODE_HEIGHT, NODE_WIDTH,
                                     ROW_PITCH, TOP, WIDTH, route)

__all__ = ["COLLAPSE_THRESHOLD", "Layout", "layout_graph", "layout_findings", "layout_path",
           "finding_nodes", "WIDTH"]

COLLAPSE_THRESHOLD = 300
_RANK = {"critical": 4, "high": 3, "medium": 2, "low": 1}


@dataclass(slots=True)
class Layout:
    width: int
    height: int
    collapsed: bool
    lanes: list[dict]
    bands: list[dict]
    nodes: list[dict]
    edges: list[dict]
    highlights: dict[str, dict] = field(default_factory=dict)   # finding id → node/edge indexes
    connectors: list[dict] = field(default_factory=list)   # path steps no graph edge draws
    index_of: dict[str, int] = field(default_factory=dict)   # graph node id → drawn node


def finding_nodes(finding: dict) -> list[str]:
    """The nodes a finding runs through: its steps (the pipeline's trace), else its path."""
    if "steps" in finding:
        return [step["node"] for step in finding["steps"]]
    return list(finding.get("path", []))


def layout_graph(graph: dict, findings: list[dict]) -> Layout:
    """The whole graph (collapsed by module past COLLAPSE_THRESHOLD nodes)."""
    nodes, edges, group_of = _collapse(graph) if len(graph["nodes"]) > COLLAPSE_THRESHOLD \
        else _identity(graph["nodes"], graph["edges"])
    layout = _laid_out(nodes, edges, collapsed=len(nodes) < len(graph["nodes"]))
    layout.index_of = group_of
    layout.highlights = _highlights(graph, findings, group_of, edges)
    layout.connectors = _connectors(graph, findings, group_of, nodes)
    _mark_findings(layout, findings)
    return layout


def layout_findings(graph: dict, findings: list[dict]) -> Layout:
    """Every finding's steps, each node once, and the graph edges between them."""
    wanted = {node for finding in findings for node in finding_nodes(finding)}
    shown = [node for node in graph["nodes"] if node["id"] in wanted]
    ids = {node["id"] for node in shown}
    kept = [edge for edge in graph["edges"] if edge["source"] in ids and edge["target"] in ids]
    sub = {"nodes": shown, "edges": kept}
    nodes, edges, group_of = _identity(shown, kept)
    layout = _laid_out(nodes, edges, collapsed=False)
    layout.index_of = group_of
    layout.highlights = _highlights(sub, findings, group_of, edges, direct_only=True)
    layout.connectors = _connectors(sub, findings, group_of, nodes, direct_only=True)
    _mark_findings(layout, findings)
    return layout


def layout_path(graph: dict, finding: dict, out: dict[str, list[int]] | None = None
                ) -> Layout:
    """One finding's steps, one row each in its lane, joined as `path_links` says: the graph
    edges between steps, else the finding's own connectors (a passing node is not a step).
    `out`: `paths.outgoing(graph)`, when the caller lays out many findings."""
    out = outgoing(graph) if out is None else out
    by_id = {node["id"]: node for node in graph["nodes"]}
    order = [by_id[n] for n in dict.fromkeys(finding_nodes(finding)) if n in by_id]
    nodes = []
    for row, node in enumerate(order):
        x = LANES.index(node["lane"]) * LANE_WIDTH + MARGIN
        nodes.append(_dress({**node, "count": 1}, x, TOP + 8 + row * ROW_PITCH))
    row_of = {node["id"]: row for row, node in enumerate(nodes)}
    ids = [node["id"] for node in nodes]
    links = path_links(graph, ids, {node["id"]: node["kind"] for node in nodes}, hops=False,
                       out=out)
    edges, connectors = [], []
    for number in links.edges:
        edge = graph["edges"][number]
        s, t = row_of.get(edge["source"]), row_of.get(edge["target"])
        if s is not None and t is not None:
            d, mx, my = route(nodes[s], nodes[t], len(edges))
            edges.append({**edge, "s": s, "t": t, "d": d, "mx": mx, "my": my})
    for number, (source, target) in enumerate(links.connectors):
        d, _, _ = route(nodes[row_of[source]], nodes[row_of[target]], number)
        connectors.append({"finding": finding["id"], "d": d})
    height = TOP + 8 + len(nodes) * ROW_PITCH + 8
    layout = Layout(WIDTH, height, False, _lanes(), [], nodes, edges, connectors=connectors)
    for node in nodes:
        node["severity"] = finding["severity"]
    return layout


def _laid_out(nodes: list[dict], edges: list[dict], *, collapsed: bool) -> Layout:
    bands, height = _place(nodes, _neighbours(edges))
    drawn = [{**edge, **dict(zip(("d", "mx", "my"),
                                 route(nodes[edge["s"]], nodes[edge["t"]], i)))}
             for i, edge in enumerate(edges)]
    return Layout(width=WIDTH, height=height, collapsed=collapsed, lanes=_lanes(),
                  bands=bands, nodes=nodes, edges=drawn)


def _lanes() -> list[dict]:
    return [{"name": lane, "x": i * LANE_WIDTH, "width": LANE_WIDTH}
            for i, lane in enumerate(LANES)]


def _identity(graph_nodes: list[dict], graph_edges: list[dict]
              ) -> tuple[list[dict], list[dict], dict[str, int]]:
    nodes = [{**node, "count": 1} for node in graph_nodes]
    group_of = {node["id"]: i for i, node in enumerate(nodes)}
    edges = [{**edge, "s": group_of[edge["source"]], "t": group_of[edge["target"]],
              "members": [i]} for i, edge in enumerate(graph_edges)]
    return nodes, edges, group_of


def _collapse(graph: dict) -> tuple[list[dict], list[dict], dict[str, int]]:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for node in graph["nodes"]:
        groups[(node["project"], node["lane"], node["file"] or node["kind"])].append(node)
    nodes, group_of = [], {}
    for key in sorted(groups, key=lambda k: (k[0], LANES.index(k[1]), k[2])):
        members = groups[key]
        for member in members:
            group_of[member["id"]] = len(nodes)
        first = members[0]
        nodes.append({"id": f"module:{key[0]}:{key[1]}:{key[2]}", "kind": "module",
                      "lane": key[1], "project": key[0], "file": first["file"],
                      "line": None, "symbol": None, "count": len(members),
                      "label": f"{len(members)} × " + ", ".join(
                          sorted({m["kind"].replace("_", " ") for m in members})),
                      "inferred": all(m["inferred"] for m in members)})
    merged: dict[tuple, dict] = {}
    for number, edge in enumerate(graph["edges"]):
        s, t = group_of[edge["source"]], group_of[edge["target"]]
        if s == t:
            continue
        entry = merged.setdefault((s, t, edge["kind"]), {
            "source": nodes[s]["id"], "target": nodes[t]["id"], "kind": edge["kind"],
            "inferred": True, "s": s, "t": t, "members": []})
        entry["inferred"] = entry["inferred"] and edge["inferred"]
        entry["members"].append(number)
    return nodes, [merged[k] for k in sorted(merged)], group_of


def _neighbours(edges: list[dict]) -> dict[int, list[int]]:
    neighbours: dict[int, list[int]] = defaultdict(list)
    for edge in edges:
        neighbours[edge["s"]].append(edge["t"])
        neighbours[edge["t"]].append(edge["s"])
    return neighbours


def _order(column_of: dict[str, list[dict]], neighbours: dict[int, list[int]],
           index_of: dict[str, int]) -> None:
    """Barycenter passes: a node moves towards the rows of its neighbours in the band, which
    untangles most crossings; ties keep file/line order, so the result is deterministic."""
    for _ in range(4):
        rows = {index_of[n["id"]]: r for column in column_of.values()
                for r, n in enumerate(column)}
        for lane in LANES:
            column = column_of.get(lane, [])
            def centre(pair: tuple[int, dict]) -> tuple[float, int]:
                position, node = pair
                near = [rows[m] for m in neighbours.get(index_of[node["id"]], []) if m in rows]
                return (sum(near) / len(near) if near else position, position)
            column[:] = [node for _, node in sorted(enumerate(column), key=centre)]
            rows.update({index_of[n["id"]]: r for r, n in enumerate(column)})


def _place(nodes: list[dict], neighbours: dict[int, list[int]]) -> tuple[list[dict], int]:
    by_band: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for node in nodes:
        by_band[node["project"]][node["lane"]].append(node)
    index_of = {node["id"]: i for i, node in enumerate(nodes)}
    bands, y = [], TOP
    for project in sorted(by_band):
        _order(by_band[project], neighbours, index_of)
        rows = max(len(column) for column in by_band[project].values())
        height = BAND_HEADER + rows * ROW_PITCH
        bands.append({"name": project, "y": y, "height": height,
                      "title": _clip(f"project: {project}", BAND_CHARS)})
        for lane, column in by_band[project].items():
            x = LANES.index(lane) * LANE_WIDTH + MARGIN
            for row, node in enumerate(column):
                _dress(node, x, y + BAND_HEADER + row * ROW_PITCH)
        y += height + BAND_GAP
    return bands, y


def _dress(node: dict, x: int, y: int) -> dict:
    node.update(x=x, y=y, w=NODE_WIDTH, h=NODE_HEIGHT, title=_title(node),
                kind_text=_kind_text(node), label_text=_clip(node["label"], LABEL_CHARS),
                where_text=_where_text(node))
    return node


def _highlights(graph: dict, findings: list[dict], group_of: dict[str, int],
                edges: list[dict], *, direct_only: bool = False) -> dict[str, dict]:
    drawn_edge = {member: i for i, edge in enumerate(edges) for member in edge["members"]}
    kinds = {node["id"]: node["kind"] for node in graph["nodes"]}
    out = outgoing(graph)
    at = defaultdict(list)
    for node in graph["nodes"]:
        at[(node["file"], node["line"])].append(node["id"])
    highlights = {}
    for finding in findings:
        path = [p for p in finding_nodes(finding) if p in group_of]
        anchors = [] if "steps" in finding else \
            at.get((finding["evidence"]["file"], finding["evidence"]["line"]), [])
        if finding.get("emu_key") and "steps" not in finding:
            anchors = [*anchors, f"emu:{finding['emu_key']}"]
        links = path_links(graph, path, kinds, hops=not direct_only, out=out)
        node_ids = [group_of[p] for p in (*path, *anchors, *links.via) if p in group_of]
        edge_ids = [drawn_edge[n] for n in links.edges if n in drawn_edge]
        highlights[finding["id"]] = {"nodes": sorted(set(node_ids)),
                                     "edges": sorted(set(edge_ids))}
    return highlights


def _connectors(graph: dict, findings: list[dict], group_of: dict[str, int],
                nodes: list[dict], *, direct_only: bool = False) -> list[dict]:
    """A finding's own connector for each path step without a graph edge (drawn only while
    the finding is highlighted, labelled as the finding's path, never as a graph edge)."""
    kinds = {node["id"]: node["kind"] for node in graph["nodes"]}
    out = outgoing(graph)
    connectors = []
    for finding in findings:
        path = [p for p in finding_nodes(finding) if p in group_of]
        links = path_links(graph, path, kinds, hops=not direct_only, out=out)
        for number, (source, target) in enumerate(links.connectors):
            s, t = group_of[source], group_of[target]
            if s != t:
                connectors.append({"finding": finding["id"],
                                   "d": route(nodes[s], nodes[t], number)[0]})
    return connectors


def _mark_findings(layout: Layout, findings: list[dict]) -> None:
    for finding in findings:
        for index in layout.highlights[finding["id"]]["nodes"]:
            node = layout.nodes[index]
            if _RANK[finding["severity"]] > _RANK.get(node.get("severity", ""), 0):
                node["severity"] = finding["severity"]


def _kind_text(node: dict) -> str:
    kind = node["kind"].replace("_", " ") + (" · inferred" if node["inferred"] else "")
    if node.get("authority"):
        kind = f"{kind} · {node['authority']}"
    if node.get("system") and node["system"] != "code":
        kind = f"{node['system']} {kind}"
    return _clip(kind, KIND_CHARS)


def _where_text(node: dict) -> str:
    """`file:line`, cut from the left so the file name and line stay readable."""
    if not node["file"]:
        return "(no file)"
    where = f"{node['file']}:{node['line']}" if node["line"] else node["file"]
    return where if len(where) <= KIND_CHARS else "…" + where[-(KIND_CHARS - 1):]


def _title(node: dict) -> str:
    parts = [node["id"]]
    if node.get("symbol"):
        parts.append(f"symbol: {node['symbol']}")
    if node["file"]:
        parts.append(f"{node['file']}:{node['line'] or 'unknown'}")
    if node.get("system"):
        parts.append(f"system: {node['system']}")
    if node.get("authority"):
        parts.append(f"authority: {node['authority']}")
    if node["inferred"]:
        parts.append("inferred (a heuristic placed it)")
    return "\n".join(parts)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
