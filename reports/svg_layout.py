"""Coordinates for the HTML report's inline SVG: five lanes side by side (observation →
recording, seed 000's edge roles), one horizontal band per project, nodes stacked in their
lane, edges as curves from the right side of a node to the left side of the next.

Sized for a 1280 px wide window: five 248 px lanes. Past `COLLAPSE_THRESHOLD` nodes the graph
is collapsed by module: one box per (project, lane, file) with a count, edges merged, and each
finding's path mapped onto the boxes. Everything is computed here, deterministically; the
template only prints numbers and escaped text.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from topo.audit.placement import LANES
from topo.reports.paths import path_steps

__all__ = ["COLLAPSE_THRESHOLD", "Layout", "layout_graph", "WIDTH"]

COLLAPSE_THRESHOLD = 300
WIDTH = 1240
LANE_WIDTH = WIDTH // len(LANES)
NODE_WIDTH, NODE_HEIGHT, ROW_PITCH = 224, 42, 52
TOP, BAND_HEADER, BAND_GAP = 34, 26, 10
_KIND_CHARS, _LABEL_CHARS = 40, 31     # what fits in NODE_WIDTH at 10 px / 12 px


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


def layout_graph(graph: dict, findings: list[dict]) -> Layout:
    nodes, edges, group_of = _collapse(graph) if len(graph["nodes"]) > COLLAPSE_THRESHOLD \
        else _identity(graph)
    bands, height = _place(nodes, _neighbours(edges))
    drawn = [_curve(edge, nodes) for edge in edges]
    layout = Layout(width=WIDTH, height=height, collapsed=len(nodes) < len(graph["nodes"]),
                    lanes=[{"name": lane, "x": i * LANE_WIDTH, "width": LANE_WIDTH}
                           for i, lane in enumerate(LANES)],
                    bands=bands, nodes=nodes, edges=drawn)
    layout.highlights = _highlights(graph, findings, group_of, edges)
    layout.connectors = _connectors(graph, findings, group_of, nodes)
    _mark_findings(layout, findings)
    return layout


def _identity(graph: dict) -> tuple[list[dict], list[dict], dict[str, int]]:
    nodes = [{**node, "count": 1} for node in graph["nodes"]]
    group_of = {node["id"]: i for i, node in enumerate(nodes)}
    edges = [{**edge, "s": group_of[edge["source"]], "t": group_of[edge["target"]],
              "members": [i]} for i, edge in enumerate(graph["edges"])]
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
        bands.append({"name": project, "y": y, "height": height})
        for lane, column in by_band[project].items():
            x = LANES.index(lane) * LANE_WIDTH + (LANE_WIDTH - NODE_WIDTH) // 2
            for row, node in enumerate(column):
                node.update(x=x, y=y + BAND_HEADER + row * ROW_PITCH, w=NODE_WIDTH,
                            h=NODE_HEIGHT, title=_title(node), kind_text=_kind_text(node),
                            label_text=_clip(node["label"], _LABEL_CHARS))
        y += height + BAND_GAP
    return bands, y


def _curve(edge: dict, nodes: list[dict]) -> dict:
    source, target = nodes[edge["s"]], nodes[edge["t"]]
    sy, ty = source["y"] + NODE_HEIGHT // 2, target["y"] + NODE_HEIGHT // 2
    if target["x"] > source["x"]:                       # forward: right side → left side
        sx, tx = source["x"] + NODE_WIDTH, target["x"]
        bend = max(30, (tx - sx) // 2)
        c1, c2 = sx + bend, tx - bend
    elif target["x"] == source["x"]:                    # same lane: an arc on the right
        sx = tx = source["x"] + NODE_WIDTH
        c1 = c2 = sx + 14 + min(40, abs(ty - sy) // 4)
    else:                                               # backward: left side → right side
        sx, tx = source["x"], target["x"] + NODE_WIDTH
        c1, c2 = sx - 40, tx + 40
    return {**edge, "d": f"M{sx},{sy} C{c1},{sy} {c2},{ty} {tx},{ty}",
            "mx": (sx + 3 * c1 + 3 * c2 + tx) // 8, "my": (sy + ty) // 2,
            "label": "inferred" if edge["inferred"] else ""}


def _highlights(graph: dict, findings: list[dict], group_of: dict[str, int],
                edges: list[dict]) -> dict[str, dict]:
    drawn_edge = {member: i for i, edge in enumerate(edges) for member in edge["members"]}
    at = defaultdict(list)
    for node in graph["nodes"]:
        at[(node["file"], node["line"])].append(node["id"])
    highlights = {}
    for finding in findings:
        path = [p for p in finding.get("path", []) if p in group_of]
        anchors = at.get((finding["evidence"]["file"], finding["evidence"]["line"]), [])
        if finding.get("emu_key"):
            anchors = [*anchors, f"emu:{finding['emu_key']}"]
        node_ids = [group_of[p] for p in (*path, *anchors) if p in group_of]
        edge_ids: list[int] = []
        for step in path_steps(graph, path):
            node_ids += [group_of[v] for v in step.via]
            edge_ids += [drawn_edge[n] for n in step.edges if n in drawn_edge]
        highlights[finding["id"]] = {"nodes": sorted(set(node_ids)),
                                     "edges": sorted(set(edge_ids))}
    return highlights


def _connectors(graph: dict, findings: list[dict], group_of: dict[str, int],
                nodes: list[dict]) -> list[dict]:
    """A finding's own connector for each path step without a graph edge (drawn only while
    the finding is highlighted, labelled as the finding's path, never as a graph edge)."""
    connectors = []
    for finding in findings:
        path = [p for p in finding.get("path", []) if p in group_of]
        for step in path_steps(graph, path):
            s, t = group_of[step.source], group_of[step.target]
            if not step.edges and s != t:
                curve = _curve({"s": s, "t": t, "inferred": False}, nodes)
                connectors.append({"finding": finding["id"], "d": curve["d"]})
    return connectors


def _mark_findings(layout: Layout, findings: list[dict]) -> None:
    rank = {"critical": 4, "high": 3, "medium": 2, "low": 1}
    for finding in findings:
        for index in layout.highlights[finding["id"]]["nodes"]:
            node = layout.nodes[index]
            if rank[finding["severity"]] > rank.get(node.get("severity", ""), 0):
                node["severity"] = finding["severity"]


def _kind_text(node: dict) -> str:
    where = f"{node['file']}:{node['line']}" if node["file"] and node["line"] else \
        (node["file"] or "")
    kind = node["kind"].replace("_", " ") + (" · inferred" if node["inferred"] else "")
    if node.get("authority"):
        kind = f"{kind} · {node['authority']}"
    if node.get("system") and node["system"] != "code":
        kind = f"{node['system']} {kind}"
    return _clip(f"{kind} · {where}" if where else kind, _KIND_CHARS)


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
