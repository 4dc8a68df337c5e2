"""The `graph` and `projects` sections of TOPOLOGY_STATE: every node in its lane and project,
every edge with its role and whether it is inferred.

The lanes and projects are the pipeline's (`audit/placement.py`, in the document under
`PLACEMENT`); this module adds the labels and the order. The HTML and Markdown views draw
exactly these nodes and edges, so they add no relationship the YAML does not hold.
"""

from __future__ import annotations

from topo.audit.placement import LANES, PROJECT_RULE, NodePlacement, Placement
from topo.reports._index import UNKNOWN, DocumentIndex, local_symbol
from topo.reports.document import PLACEMENT

__all__ = ["LANES", "graph_section", "projects_section", "PROJECT_RULE"]


def _placement(index: DocumentIndex) -> Placement:
    return index.document[PLACEMENT]


def graph_section(index: DocumentIndex) -> dict:
    placed = index.placed
    nodes = [_site_node(site, placed[site["id"]]) for site in index.document["sites"]]
    nodes += [_other_node(node, placed[node["id"]]) for node in index.document.get("nodes", [])]
    inferred = {node["id"]: node["inferred"] for node in nodes}
    edges = [_edge(edge, source, inferred) for edge in (*index.document["edges"],
                                                        *index.document.get("relations", []))
             for source in _sources(edge)]
    known = {node["id"] for node in nodes}
    edges = [e for e in edges if e["source"] in known and e["target"] in known]
    return {"lanes": list(LANES),
            "nodes": sorted(nodes, key=lambda n: (n["project"], LANES.index(n["lane"]),
                                                  n["file"] or "", n["line"] or 0, n["id"])),
            "edges": sorted(edges, key=lambda e: (e["source"], e["target"], e["kind"]))}


def projects_section(index: DocumentIndex) -> list[dict]:
    return [{"name": project.name, "nodes": project.nodes, "files": list(project.files),
             "memrail_projects": list(project.policy_projects) or UNKNOWN}
            for project in _placement(index).projects]


def _site_node(site: dict, spot: NodePlacement) -> dict:
    node = {"id": site["id"], "kind": site["kind"], "lane": spot.lane, "project": spot.project,
            "file": site["file"], "symbol": site["symbol"], "line": site["line"],
            "label": _site_label(site), "inferred": bool(site.get("inferred")),
            "system": site["system"]}
    if spot.authority is not None:
        node["authority"] = spot.authority
    return node


def _other_node(node: dict, spot: NodePlacement) -> dict:
    name = node["id"].split(":", 1)[1]
    label = local_symbol(node["file"], name) if node["kind"] == "function" else name
    return {"id": node["id"], "kind": node["kind"], "lane": spot.lane, "project": spot.project,
            "file": node["file"], "symbol": node["symbol"], "line": node["line"],
            "label": label, "inferred": bool(node["inferred"])}


def _sources(edge: dict) -> list[str]:
    """The document writes an inference edge once, its `origins` listed (topo-audit/2); the
    views draw one edge from each origin, as the graph holds them."""
    return edge.get("attrs", {}).get("origins") or [edge["source"]]


def _edge(edge: dict, source: str, inferred: dict[str, bool]) -> dict:
    flag = bool(edge.get("inferred"))
    if edge.get("attrs", {}).get("origins"):
        # One link of an inference edge: inferred as the graph marks it, by its own two ends.
        flag = inferred.get(source, False) or inferred.get(edge["target"], False)
    data = {"source": source, "target": edge["target"], "kind": edge["kind"], "inferred": flag}
    enforced = edge.get("attrs", {}).get("enforced")
    if enforced is not None:
        data["enforced"] = enforced
    return data


def _site_label(site: dict) -> str:
    attrs = site["attrs"]
    callee = str(attrs.get("callee") or "").rsplit(".", 2)
    short_callee = ".".join(callee[-2:]) if callee != [""] else ""
    match site["kind"]:
        case "decision_call":
            return f"decide {attrs.get('decision_point') or UNKNOWN}"
        case "atom":
            return f"{attrs.get('kind', 'atom')} {attrs.get('key') or UNKNOWN}"
        case "event_emit":
            names = attrs.get("event_names") or [attrs.get("event_name") or UNKNOWN]
            return f"emit {', '.join(map(str, names))}"
        case "tool_registration":
            return f"tool {attrs.get('tool_name') or UNKNOWN}"
        case "executor":
            return f"{short_callee or 'effect'} ({attrs.get('tier') or UNKNOWN})"
        case "inference":
            return f"{attrs.get('provider') or 'model'} {attrs.get('api') or short_callee}"
        case "threshold" | "model_branch":
            value = attrs.get("value")
            return f"{attrs.get('operand') or '?'} {attrs.get('op') or ''} " \
                   f"{'' if value is None else value}".strip()
        case "approval_gate":
            return f"approval by {attrs.get('approver') or UNKNOWN}"
        case "fallback":
            return f"except {attrs.get('handler') or '(any)'}"
        case "entry_point":
            detail = attrs.get("path") or attrs.get("queue") or attrs.get("schedule") or ""
            return f"{str(attrs.get('entry_kind') or 'entry').replace('_', ' ')} {detail}".strip()
        case "config_gate" if attrs.get("authority_kind"):
            what = attrs.get("operand") or attrs.get("flag") or short_callee
            return f"{attrs['authority_kind']}: {what} (not a model)"
    return short_callee or site["kind"]
