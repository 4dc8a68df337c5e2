"""The audit document: the one data structure every report renders (the JSON contract).

Built once from an `AuditResult`; renderers add no facts of their own. Dicts appear here, at
the serialization edge, and nowhere before it. Beside the contract's keys, `CONTRACTS` holds
the pipeline's typed decision-point facts, `FINDING_FACTS` its typed facts about findings,
`PLACEMENT` every shown node's lane and project (and the projects), `OUTCOMES` the eight
answers per consequential outcome and `CODE_AUTHORITY` the entry points and the authority that
is not a model, for the TOPOLOGY_STATE views; `json_document` is the
document without them, as `-f json` writes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.audit.contracts import emu_action
from topo.audit.finding_traces import FindingTrace
from topo.audit.summary import GAP_CODES
from topo.audit.graph.build import INFERRED, KIND
from topo.audit.graph.relations import Node, Relation
from topo.analyzers.model import Edge, Location, Site, Unknown
from topo.audit.model import Finding
from topo.audit.pipeline import AuditResult
from topo.audit.policy import Emu
from topo.audit.tool_inventory import Tool
from topo.audit.graph.reachability import ReachabilityRow
from topo.reports.coverage_report import coverage_document
from topo.reports.escape import escape_document, escape_facts
from topo.reports.notebook_places import NotebookPlaces

__all__ = ["SCHEMA", "CONTRACTS", "FINDING_FACTS", "PLACEMENT", "OUTCOMES", "CODE_AUTHORITY",
           "audit_document",
           "json_document", "finding_ids", "GAP_CODES"]

# /2: an inference edge is written once per consumer, `attrs.origins` listing its sources.
SCHEMA = "topo-audit/2"
CONTRACTS = "contracts"
FINDING_FACTS = "finding_facts"
PLACEMENT = "placement"
OUTCOMES = "outcomes"
CODE_AUTHORITY = "code_authority"
_VIEW_ONLY = (CONTRACTS, FINDING_FACTS, PLACEMENT, OUTCOMES, CODE_AUTHORITY)


def audit_document(result: AuditResult) -> dict:
    sites, edges, findings = result.facts.sites, result.facts.edges, result.findings
    ids = finding_ids(findings)
    places = NotebookPlaces(result.facts.files)
    document = escape_document({
        "schema": SCHEMA,
        "repository_path": result.repository_path,
        "summary": _summary(result),
        "sites": [_site(site) for site in sites],
        "edges": [_edge(edge, result.graph) for edge in edges],
        "emus": [_emu(emu) for emu in result.emus],
        "findings": [{**_finding(f, ids[i], places), **_trace(trace)}
                     for i, (f, trace) in enumerate(zip(findings, _traces(result)))],
        "unknowns": [_unknown(u) for u in result.unknowns],
        "reachability": [_row(row) for row in result.reachability],
        "scope": _scope(result),
        "nodes": [_node(node) for node in result.nodes],
        "relations": [_relation(relation) for relation in result.relations],
        "coverage": coverage_document(result.coverage),
        "tools": [_tool(tool, dict(zip((f.fingerprint for f in findings), ids)))
                  for tool in result.tools],
    })
    # The typed facts the views read travel beside the JSON part, escaped the same way.
    document.update(escape_facts({CONTRACTS: result.contracts,
                                  FINDING_FACTS: result.finding_facts,
                                  PLACEMENT: result.placement,
                                  OUTCOMES: result.outcomes,
                                  CODE_AUTHORITY: result.code_authority}))
    return document


def json_document(document: dict) -> dict:
    """The document as the JSON contract has it: without the views' typed facts."""
    return {key: value for key, value in document.items() if key not in _VIEW_ONLY}


def finding_ids(findings: Iterable[Finding]) -> list[str]:
    """`AUTH-001`… in the findings' (prioritised) order."""
    return [f"AUTH-{index:03d}" for index, _ in enumerate(findings, start=1)]


def _summary(result: AuditResult) -> dict:
    facts = result.summary
    return {
        "files": len(result.facts.files),
        "lines": result.lines,
        "decision_points": facts.decision_points,
        "consequential_paths": facts.consequential_paths,
        **dict(facts.gaps),
        "hidden_authority_sites": facts.hidden_authority_sites,
        "sites": len(result.facts.sites),
        "emus": len(result.emus),
        "findings": len(result.findings),
        "suppressed": sum(1 for f in result.findings if f.suppression is not None),
        "unknowns": len(result.unknowns),
        "partial": result.partial,
    }


def _site(site: Site) -> dict:
    return {"id": site.id, "kind": site.kind.value, "system": site.system,
            "language": site.language, "file": site.location.file, "symbol": site.symbol,
            "line": site.location.line, "column": site.location.column,
            "inferred": site.inferred,
            "attrs": {key: _plain(value) for key, value in site.attrs}}


def _edge(edge: Edge, graph) -> dict:
    # The graph marks an edge inferred when a heuristic placed either end; say so per edge (an
    # inference edge is one graph edge per origin: inferred when any of them is).
    inferred = any(data.get(KIND) == edge.kind.value and data.get(INFERRED)
                   for source, target in edge.pairs()
                   for data in graph.get_edge_data(source, target, default={}).values())
    return {"source": edge.source, "target": edge.target, "kind": edge.kind.value,
            "inferred": inferred,
            "attrs": {key: _plain(value) for key, value in edge.attrs}}


def _scope(result: AuditResult) -> dict:
    """What was audited and what was left out; the root by its name only (no absolute path)."""
    inventory = result.inventory
    return {"root": result.root_name,
            "manifests": list(inventory.manifests), "emu_dirs": list(inventory.emu_dirs),
            "listing": list(inventory.notes),
            "out_of_scope": [{"area": rule.area, "patterns": list(rule.patterns),
                              "reason": rule.reason} for rule in inventory.out_of_scope]}


def _node(node: Node) -> dict:
    return {"id": node.id, "kind": node.kind, "file": node.file, "symbol": node.symbol,
            "line": node.line, "inferred": node.inferred}


def _relation(relation: Relation) -> dict:
    return {"source": relation.source, "target": relation.target, "kind": relation.kind,
            "inferred": relation.inferred}


def _emu(emu: Emu) -> dict:
    dependencies = [
        {"kind": d.kind, "key": d.key, "project": d.project, "polarity": d.polarity,
         "under_count": d.under_count, "guarded": d.guarded,
         "window": d.window.raw if d.window else None, "where": list(d.where_attrs),
         "templates": list(d.templates)}
        for d in emu.dependencies]
    return {"emu_key": emu.emu_key, "decision_point": emu.decision_point,
            "file": emu.location.file, "line": emu.location.line, "state": emu.state,
            "action": _action(emu), "dependencies": dependencies}


def _action(emu: Emu) -> dict | None:
    action = emu_action(emu)
    return None if action is None else {"type": action.type, "tool_id": action.tool_id,
                                        "version": action.version, "name": action.name}


def _finding(finding: Finding, finding_id: str, places: NotebookPlaces) -> dict:
    data = {"id": finding_id, "code": finding.code.id, "severity": finding.severity.value,
            "title": finding.code.title, "message": finding.message,
            "file": finding.location.file, "symbol": finding.symbol,
            "line": finding.location.line, "fingerprint": finding.fingerprint,
            "inferred": finding.inferred, **_span_end(finding.location)}
    if finding.emu_key is not None:
        data["emu_key"] = finding.emu_key
    cell = places.cell(finding.location.file, finding.location.line)
    if cell is not None:   # a notebook: `line` counts its code cells' script
        data["cell"] = {"index": cell[0], "line": cell[1]}
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


def _traces(result: AuditResult) -> list[FindingTrace | None]:
    """The pipeline's trace of each finding (None for a result built without them)."""
    traces = {trace.fingerprint: trace for trace in result.traces}
    return [traces.get(finding.fingerprint) for finding in result.findings]


def _trace(trace: FindingTrace | None) -> dict:
    """`steps` (the nodes the finding runs through, each with lane, role, file and line) and
    `excerpt` (the effect's lines, or None when its file could not be read)."""
    if trace is None:
        return {}
    excerpt = trace.excerpt
    return {"steps": [{"node": s.node, "lane": s.lane, "role": s.role, "file": s.file,
                       "line": s.line} for s in trace.steps],
            "effect": trace.effect,
            "excerpt": None if excerpt is None else {
                "file": excerpt.file, "line": excerpt.line, "start": excerpt.start,
                "lines": list(excerpt.lines)}}


def _tool(tool: Tool, ids: dict[str, str]) -> dict:
    return {"name": tool.name, "framework": tool.framework,
            "registrations": list(tool.registrations), "file": tool.file, "line": tool.line,
            "effects": [{"site": e.site, "callee": e.callee, "tier": e.tier, "file": e.file,
                         "line": e.line, "governance": e.governance} for e in tool.effects],
            "governance": tool.governance, "hints": dict(tool.hints),
            "findings": [ids[fp] for fp in tool.findings if fp in ids]}


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
            "project_coherent": row.project_coherent, "reasons": list(row.reasons),
            "why": list(row.why)}


def _unknown(unknown: Unknown) -> dict:
    data = {"file": unknown.file, "reason": unknown.reason}
    if unknown.line is not None:
        data["line"] = unknown.line
    return data


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value
