"""The `graph` and `projects` sections of TOPOLOGY_STATE: every node placed in one of seed 000's
five lanes and in a project, every edge with its role and whether it is inferred.

The HTML and Markdown views draw exactly these nodes and edges, so they add no relationship the
YAML does not hold.

Lanes: a site goes to the lane of its pack role (`attrs.role`) when it has one, else to the
lane of its kind (`_SITE_LANES`). Decision points and EMUs are authority, tools execution,
events recording; a function goes to the lane of its first site, or execution when a
dispatcher or registration executes it.

Projects: the nearest directory holding a manifest, else the top-level directory — a proxy for
the deployable, stated in the metadata.
"""

from __future__ import annotations

from collections import Counter

from topo.reports._index import UNKNOWN, DocumentIndex, local_symbol

__all__ = ["LANES", "graph_section", "projects_section", "PROJECT_RULE"]

LANES = ("observation", "inference", "authority", "execution", "recording")
PROJECT_RULE = ("project = nearest directory with a manifest (pyproject.toml, package.json, "
                "setup.cfg, tsconfig.json), else the top-level directory (a proxy for the "
                "deployable)")

_SITE_LANES = {
    "atom": "observation", "memory_read": "observation",
    "inference": "inference", "validation": "inference",
    "decision_call": "authority", "threshold": "authority", "model_branch": "authority",
    "approval_gate": "authority", "config_gate": "authority", "fallback": "authority",
    "prompt_policy": "authority",
    "executor": "execution", "dispatcher": "execution", "tool_registration": "execution",
    "action_handler": "execution",
    "event_emit": "recording", "ack": "recording", "memory_write": "recording",
}
_NODE_LANES = {"decision_point": "authority", "emu": "authority", "tool": "execution",
               "event": "recording"}


def graph_section(index: DocumentIndex) -> dict:
    nodes = [_site_node(index, site) for site in index.document["sites"]]
    nodes += [_other_node(index, node) for node in index.document.get("nodes", [])]
    lanes = {node["id"]: node["lane"] for node in nodes}
    for node in nodes:
        if node["kind"] == "function":
            node["lane"] = _function_lane(index, node["id"], lanes)
    _place_fileless(index, nodes)
    edges = [_edge(edge) for edge in (*index.document["edges"],
                                      *index.document.get("relations", []))]
    known = {node["id"] for node in nodes}
    edges = [e for e in edges if e["source"] in known and e["target"] in known]
    return {"lanes": list(LANES),
            "nodes": sorted(nodes, key=lambda n: (n["project"], LANES.index(n["lane"]),
                                                  n["file"] or "", n["line"] or 0, n["id"])),
            "edges": sorted(edges, key=lambda e: (e["source"], e["target"], e["kind"]))}


def projects_section(index: DocumentIndex, graph: dict) -> list[dict]:
    counts = Counter(node["project"] for node in graph["nodes"] if node["project"] != UNKNOWN)
    files: dict[str, set[str]] = {}
    for node in graph["nodes"]:
        if node["file"] and node["project"] != UNKNOWN:
            files.setdefault(node["project"], set()).add(node["file"])
    points: dict[str, set[str]] = {}
    for site in index.sites_of_kind("decision_call", "tool_registration", "event_emit"):
        named = site["attrs"].get("projects") or [site["attrs"].get("project")]
        for project in named:
            if isinstance(project, str) and project:
                points.setdefault(index.project_of(site["file"]), set()).add(project)
    return [{"name": name, "nodes": counts[name], "files": sorted(files.get(name, ())),
             "memrail_projects": sorted(points.get(name, ())) or UNKNOWN}
            for name in sorted(counts)]


def _site_node(index: DocumentIndex, site: dict) -> dict:
    role = site["attrs"].get("role")
    lane = role if role in LANES else _SITE_LANES.get(site["kind"], "authority")
    node = {"id": site["id"], "kind": site["kind"], "lane": lane,
            "project": index.project_of(site["file"]), "file": site["file"],
            "symbol": site["symbol"], "line": site["line"], "label": _site_label(site),
            "inferred": bool(site.get("inferred")), "system": site["system"]}
    enforced = site["attrs"].get("enforced")
    if lane == "authority" and isinstance(enforced, bool):
        # Enforced (a decision engine, a human approval) vs advisory (prompt or memory rules,
        # another model's verdict): the reports draw them differently.
        node["authority"] = "enforced" if enforced else "advisory"
    return node


def _other_node(index: DocumentIndex, node: dict) -> dict:
    name = node["id"].split(":", 1)[1]
    label = local_symbol(node["file"], name) if node["kind"] == "function" else name
    project = index.project_of(node["file"]) if node["file"] and node["kind"] != "emu" \
        else UNKNOWN
    return {"id": node["id"], "kind": node["kind"],
            "lane": _NODE_LANES.get(node["kind"], "observation"), "project": project,
            "file": node["file"], "symbol": node["symbol"], "line": node["line"],
            "label": label, "inferred": bool(node["inferred"])}


def _place_fileless(index: DocumentIndex, nodes: list[dict]) -> None:
    """Decision points, events and tools have no file, and an EMU's file is policy, not a
    deployable: each joins the project most of its neighbours are in (two passes, so an EMU
    follows its decision point)."""
    by_id = {node["id"]: node for node in nodes}
    for _ in range(2):
        for node in nodes:
            if node["project"] != UNKNOWN:
                continue
            neighbours = [*(e["source"] for e in index.incoming.get(node["id"], [])),
                          *(e["target"] for e in index.outgoing.get(node["id"], []))]
            projects = Counter(by_id[n]["project"] for n in neighbours
                               if n in by_id and by_id[n]["project"] != UNKNOWN)
            if projects:
                node["project"] = min(projects, key=lambda p: (-projects[p], p))
    for node in nodes:
        if node["project"] == UNKNOWN and node["file"]:
            node["project"] = index.project_of(node["file"])


def _function_lane(index: DocumentIndex, function: str, lanes: dict[str, str]) -> str:
    if index.sources(function, "execution"):
        return "execution"
    contained = [index.sites[s] for s in index.targets(function, "contains") if s in index.sites]
    if contained:
        first = min(contained, key=lambda s: (s["line"], s["id"]))
        return lanes[first["id"]]
    return "observation"


def _edge(edge: dict) -> dict:
    data = {"source": edge["source"], "target": edge["target"], "kind": edge["kind"],
            "inferred": bool(edge.get("inferred"))}
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
    return short_callee or site["kind"]
