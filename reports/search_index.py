"""What the HTML report's search box looks through: every graph node (file, symbol, label,
kind), every tool (exposed name, framework, effects), every finding (code, place, message and
the quoted effect code). Each entry points at where the page shows it; all text is the
state's, each piece once (the script searches label, detail and extra together).
"""

from __future__ import annotations

from topo.reports.svg_layout import Layout

__all__ = ["search_entries"]


def search_entries(state: dict, subgraph: Layout, whole: Layout) -> list[list]:
    """`[kind, label, detail, extra, view, index]` per entry: `view` is `findings` or
    `whole` (index: a drawn node), `tool` (index: its row) or `finding` (index: its id)."""
    entries: list[list] = []
    for node in state["graph"]["nodes"]:
        where = f"{node['file']}:{node['line']}" if node["file"] else node["kind"]
        if node["id"] in subgraph.index_of:
            view, index = "findings", subgraph.index_of[node["id"]]
        else:
            view, index = "whole", whole.index_of[node["id"]]
        entries.append(["node", node["label"], where, _extra(node["kind"], node["symbol"]),
                        view, index])
    for number, tool in enumerate(state["tools"]):
        effects = [f"{e['callee']} ({e['tier']})" for e in tool["effects"]]
        entries.append(["tool", tool["name"], f"{tool['framework']} · {tool['location']}",
                        _extra(*effects), "tool", number])
    for finding in state["prioritized_findings"]:
        evidence = finding["evidence"]
        excerpt = finding.get("excerpt")
        code = excerpt["lines"] if isinstance(excerpt, dict) else []
        entries.append(["finding", f"{finding['id']} {finding['code']}",
                        f"{evidence['file']}:{evidence['line']}",
                        _extra(finding["title"], evidence["symbol"], evidence["behavior"], *code),
                        "finding", finding["id"]])
    return entries


def _extra(*parts: object) -> str:
    return " ".join(str(part) for part in parts if part)
