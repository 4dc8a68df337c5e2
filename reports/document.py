"""The audit document: the one data structure every report renders (the JSON contract).

Built once from an `AuditResult`; renderers add no facts of their own. Dicts appear here, at
the serialization edge, and nowhere before it.
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.audit import dsl
from topo.audit.graph.build import EVIDENCE, INFERRED, KIND
from topo.analyzers.model import Edge, EdgeKind, Location, Site, SiteKind, Unknown
from topo.audit.model import Finding
from topo.audit.pipeline import AuditResult
from topo.audit.policy import Emu
from topo.audit.graph.reachability import ReachabilityRow
from topo.reports.escape import escape_document

__all__ = ["SCHEMA", "audit_document", "finding_ids", "GAP_CODES"]

SCHEMA = "topo-audit/1"
GAP_CODES = {"invoke_gaps": "INVOKE-GAP", "atom_gaps": "ATOM-GAP", "action_gaps": "ACTION-GAP",
             "coherence_gaps": "COHERENCE-GAP"}


def audit_document(result: AuditResult) -> dict:
    sites, edges, findings = result.facts.sites, result.facts.edges, result.findings
    ids = finding_ids(findings)
    return escape_document({
        "schema": SCHEMA,
        "repository_path": result.repository_path,
        "summary": _summary(result, sites, edges),
        "sites": [_site(site) for site in sites],
        "edges": [_edge(edge, result.graph) for edge in edges],
        "emus": [_emu(emu) for emu in result.emus],
        "findings": [_finding(f, ids[i]) for i, f in enumerate(findings)],
        "unknowns": [_unknown(u) for u in result.unknowns],
        "reachability": [_row(row) for row in result.reachability],
        "scope": _scope(result),
        "nodes": _nodes(result.graph, edges),
        "relations": _relations(result.graph, edges),
    })


def finding_ids(findings: Iterable[Finding]) -> list[str]:
    """`AUTH-001`… in the findings' (prioritised) order."""
    return [f"AUTH-{index:03d}" for index, _ in enumerate(findings, start=1)]


def _summary(result: AuditResult, sites: tuple[Site, ...], edges: tuple[Edge, ...]) -> dict:
    codes = [f.code.id for f in result.findings]
    decision_points = {str(s.attr("decision_point")) for s in sites
                       if s.kind is SiteKind.DECISION_CALL and s.attr("decision_point")}
    decision_points |= {e.decision_point for e in result.emus if e.decision_point}
    executors = {s.id for s in sites if s.kind is SiteKind.EXECUTOR}
    hidden = {(f.location.file, f.location.line) for f in result.findings
              if f.code.id == "HIDDEN-AUTHORITY"}
    summary = {
        "files": len(result.facts.files),
        "lines": result.lines,
        "decision_points": len(decision_points),
        "consequential_paths": len({e.target for e in edges if e.kind is EdgeKind.INFERENCE
                                    and e.target in executors}),
        **{name: codes.count(code) for name, code in GAP_CODES.items()},
        "hidden_authority_sites": len(hidden),
        "sites": len(sites),
        "emus": len(result.emus),
        "findings": len(result.findings),
        "suppressed": sum(1 for f in result.findings if f.suppression is not None),
        "unknowns": len(result.unknowns),
        "partial": result.partial,
    }
    return summary


def _site(site: Site) -> dict:
    return {"id": site.id, "kind": site.kind.value, "system": site.system,
            "language": site.language, "file": site.location.file, "symbol": site.symbol,
            "line": site.location.line, "column": site.location.column,
            "inferred": site.inferred,
            "attrs": {key: _plain(value) for key, value in site.attrs}}


def _edge(edge: Edge, graph) -> dict:
    # The graph marks an edge inferred when a heuristic placed either end; say so per edge.
    inferred = any(data.get(KIND) == edge.kind.value and data.get(INFERRED)
                   for data in graph.get_edge_data(edge.source, edge.target, default={}).values())
    return {"source": edge.source, "target": edge.target, "kind": edge.kind.value,
            "inferred": inferred,
            "attrs": {key: _plain(value) for key, value in edge.attrs}}


def _scope(result: AuditResult) -> dict:
    """What was audited and what was left out; the root by its name only (no absolute path)."""
    inventory = result.inventory
    return {"root": result.root.resolve().name or str(result.root),
            "manifests": list(inventory.manifests), "emu_dirs": list(inventory.emu_dirs),
            "listing": list(inventory.notes),
            "out_of_scope": [{"area": rule.area, "patterns": list(rule.patterns),
                              "reason": rule.reason} for rule in inventory.out_of_scope]}


def _drawn_functions(graph, edges: tuple[Edge, ...]) -> set[str]:
    return {node for edge in edges for node in (edge.source, edge.target)
            if graph.nodes.get(node, {}).get(KIND) == "function"}


def _nodes(graph, edges: tuple[Edge, ...]) -> list[dict]:
    """The graph's nodes that are not sites: decision points, EMUs, events, tools, and the
    functions an edge names (every definition would swamp a large repository's report)."""
    functions = _drawn_functions(graph, edges)
    nodes = []
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        kind = data.get(KIND)
        if kind == "site" or (kind == "function" and node not in functions):
            continue
        file, symbol, line = data.get(EVIDENCE) or (None, None, None)
        nodes.append({"id": node, "kind": kind, "file": file, "symbol": symbol, "line": line,
                      "inferred": bool(data.get(INFERRED))})
    return nodes


def _relations(graph, edges: tuple[Edge, ...]) -> list[dict]:
    """The graph's structural edges (contains, consumes, binds, emits, registers, EMU → tool)
    that `edges` does not already hold, between nodes the document lists."""
    listed = {(e.source, e.target, e.kind.value) for e in edges}
    functions = _drawn_functions(graph, edges)
    relations = set()
    for source, target, data in graph.edges(data=True):
        key = (source, target, str(data.get(KIND)))
        if key in listed or any(graph.nodes[n].get(KIND) == "function" and n not in functions
                                for n in (source, target)):
            continue
        relations.add((*key, bool(data.get(INFERRED))))
    return [{"source": s, "target": t, "kind": k, "inferred": i}
            for s, t, k, i in sorted(relations)]


def _emu(emu: Emu) -> dict:
    parsed = dsl.parse_trigger(emu.trigger) if isinstance(emu.trigger, str) else None
    dependencies = [] if parsed is None or parsed.ast is None else [
        {"kind": d.kind, "key": d.key, "project": d.project, "polarity": d.polarity,
         "under_count": d.under_count, "guarded": d.guarded,
         "window": d.window.raw if d.window else None, "where": list(d.where_attrs),
         "templates": list(d.templates)}
        for d in dsl.dependencies(parsed.ast)]
    return {"emu_key": emu.emu_key, "decision_point": emu.decision_point,
            "file": emu.location.file, "line": emu.location.line, "state": emu.state,
            "action": _action(emu), "dependencies": dependencies}


def _action(emu: Emu) -> dict | None:
    """The EMU action's type and target (`tool_call` + tool id and version), as written."""
    action = emu.action if isinstance(emu.action, dict) else None
    if action is None:
        return None
    tool = action.get("tool") if isinstance(action.get("tool"), dict) else {}
    return {"type": _text(action.get("type")), "tool_id": _text(tool.get("tool_id")),
            "version": _text(tool.get("version")), "name": _text(action.get("name"))}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _finding(finding: Finding, finding_id: str) -> dict:
    data = {"id": finding_id, "code": finding.code.id, "severity": finding.severity.value,
            "title": finding.code.title, "message": finding.message,
            "file": finding.location.file, "symbol": finding.symbol,
            "line": finding.location.line, "fingerprint": finding.fingerprint,
            "inferred": finding.inferred, **_span_end(finding.location)}
    if finding.emu_key is not None:
        data["emu_key"] = finding.emu_key
    if finding.path:
        data["path"] = list(finding.path)
    if finding.related:
        data["related"] = [_location(location) for location in finding.related]
    if finding.suppression is not None:
        suppression = finding.suppression
        data["suppressed"] = {"kind": suppression.kind.value,
                              "justification": suppression.justification}
        if suppression.location is not None:
            data["suppressed"]["location"] = _location(suppression.location)
    return data


def _location(location: Location) -> dict:
    return {"file": location.file, "line": location.line, **_span_end(location)}


def _span_end(location: Location) -> dict:
    """Column and end of a span (1-based, end exclusive), when known."""
    data = {"column": location.column}
    if location.end_line is not None:
        data["end_line"] = location.end_line
    if location.end_column is not None:
        data["end_column"] = location.end_column
    return data


def _row(row: ReachabilityRow) -> dict:
    return {"emu_key": row.emu_key, "decision_point": row.decision_point,
            "required_context": list(row.required_context),
            "trigger_reachable": row.trigger_reachable, "action_connected": row.action_connected,
            "project_coherent": row.project_coherent, "reasons": list(row.reasons)}


def _unknown(unknown: Unknown) -> dict:
    data = {"file": unknown.file, "reason": unknown.reason}
    if unknown.line is not None:
        data["line"] = unknown.line
    return data


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value
