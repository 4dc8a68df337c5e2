"""TOPOLOGY_STATE: the view-model of seed 000's deliverable, built from the audit document.

YAML, HTML and Markdown all render this one dict, so the three views cannot disagree and the
HTML adds no fact the YAML lacks. Its keys follow the deliverable template: metadata, summary,
decision_points (named, inferred from model gates, and inferred from authority that is not a
model: configuration, flags, roles, database rules), hidden_authority, entry_points (scheduled
jobs, queue consumers, webhooks, routes, commands), atom_contracts, event_producers,
action_connectivity, tools (every model-callable tool by its exposed name), outcomes (seed
000's eight answers per consequential outcome), reachability_matrix, prioritized_findings
(each with its steps and the effect's code excerpt), unknowns, out_of_scope — plus `projects` and `graph` (the nodes and edges the HTML draws).

Missing information is the string `unknown`; relationships resting on heuristics carry
`inferred: true`. The only clock read is `generated_at`, which honours SOURCE_DATE_EPOCH.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime

from topo import __version__
from topo.audit.docs import code_doc
from topo.audit.outcomes import GROUPING_RULE
from topo.reports._index import UNKNOWN, DocumentIndex, local_symbol
from topo.reports.code_authority import entry_points_section, policy_points
from topo.reports.contracts import action_connectivity, atom_contracts, decision_points, \
    event_producers
from topo.reports.document import FINDING_FACTS, GAP_CODES
from topo.reports.graph_view import PROJECT_RULE, graph_section, projects_section
from topo.reports.outcomes import outcomes_section

__all__ = ["SCHEMA", "SEVERITIES", "MIGRATION_PHASES", "MIGRATION_RULE", "generated_at",
           "recommendation", "topology_state"]

SCHEMA = "topo-state/1"
SEVERITIES = ("critical", "high", "medium", "low")
# Seed 000 "Rank findings by authority and consequence": the priority level is the phase.
MIGRATION_PHASES = {"critical": 1, "high": 2, "medium": 3, "low": 4}
MIGRATION_RULE = ("phase = severity rank: critical → 1 (an enforced decision before the effect), "
                  "high → 2 (close bypasses and missing event/action connections), medium → 3 "
                  "(make policy auditable), low → 4 (naming and documentation debt)")


def generated_at(environ: Mapping[str, str] = os.environ) -> str:
    """SOURCE_DATE_EPOCH (reproducible builds) as UTC ISO 8601, else the current time."""
    epoch = environ.get("SOURCE_DATE_EPOCH", "").strip()
    moment = datetime.fromtimestamp(int(epoch), UTC) if epoch.isdigit() else datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def topology_state(document: dict, *, generated: str) -> dict:
    index = DocumentIndex.of(document)
    graph = graph_section(index)
    projects = projects_section(index)
    findings = _prioritized_findings(index)
    entries, policies = entry_points_section(index), policy_points(index)
    return {
        "metadata": _metadata(document, generated),
        "summary": {**_summary(document, projects, findings), "entry_points": len(entries),
                    "non_model_authority_sites": len(policies)},
        "projects": projects,
        "decision_points": [*decision_points(index), *policies],
        "hidden_authority": _hidden_authority(index),
        "entry_points": entries,
        "atom_contracts": atom_contracts(index),
        "event_producers": event_producers(index),
        "action_connectivity": action_connectivity(index),
        "tools": [_tool(tool) for tool in document.get("tools", [])],
        "outcomes": outcomes_section(index),
        "reachability_matrix": [_row(row) for row in document["reachability"]],
        "prioritized_findings": findings,
        "unknowns": [{"file": u["file"], "line": u.get("line", UNKNOWN), "reason": u["reason"]}
                     for u in document["unknowns"]],
        "out_of_scope": document["scope"]["out_of_scope"],
        "graph": graph,
    }


def _metadata(document: dict, generated: str) -> dict:
    scope = document["scope"]
    return {"schema": SCHEMA, "generated_at": generated,
            "scope": f"repository root ({scope['root']})", "mode": "read-only",
            "tool": f"topo {__version__}", "partial": document["summary"]["partial"],
            "inputs": {"files": document["summary"]["files"],
                       "lines": document["summary"]["lines"],
                       "emu_dirs": scope["emu_dirs"], "listing": scope["listing"]},
            "projects_rule": PROJECT_RULE, "migration_phase_rule": MIGRATION_RULE,
            "outcomes_rule": GROUPING_RULE}


def _summary(document: dict, projects: list[dict], findings: list[dict]) -> dict:
    summary = document["summary"]
    severities = [f["severity"] for f in findings if not f.get("suppressed")]
    return {"projects": len(projects), "decision_points": summary["decision_points"],
            "consequential_paths": summary["consequential_paths"],
            **{name: summary[name] for name in GAP_CODES},
            "hidden_authority_sites": summary["hidden_authority_sites"],
            "findings": {s: severities.count(s) for s in SEVERITIES},
            "suppressed_findings": len(findings) - len(severities),
            "emus": summary["emus"], "sites": summary["sites"],
            "unknowns": summary["unknowns"]}


def _hidden_authority(index: DocumentIndex) -> list[dict]:
    ids = _finding_ids(index)
    return [{"file": h.file, "symbol": local_symbol(h.file, h.symbol), "line": h.line,
             "classification": "authority", "site": h.site or UNKNOWN, "behavior": h.message,
             "inferred": h.inferred, "findings": [ids[fp] for fp in h.findings if fp in ids]}
            for h in index.document[FINDING_FACTS].hidden_authority]


def _finding_ids(index: DocumentIndex) -> dict[str, str]:
    return {f["fingerprint"]: f["id"] for f in index.document["findings"]}


def _prioritized_findings(index: DocumentIndex) -> list[dict]:
    points = dict(index.document[FINDING_FACTS].points)
    findings = []
    for finding in index.document["findings"]:
        entry = {"id": finding["id"], "severity": finding["severity"], "code": finding["code"],
                 "title": finding["title"], "decision_point": points[finding["fingerprint"]],
                 "evidence": {"file": finding["file"],
                              "symbol": local_symbol(finding["file"], finding["symbol"]),
                              "line": finding["line"], "behavior": finding["message"]},
                 "recommendation": recommendation(finding["code"]),
                 "migration_phase": MIGRATION_PHASES[finding["severity"]],
                 "inferred": finding["inferred"], "fingerprint": finding["fingerprint"]}
        if finding.get("emu_key"):
            entry["emu_key"] = finding["emu_key"]
        if finding.get("path"):
            entry["path"] = finding["path"]
        if finding.get("suppressed"):
            entry["suppressed"] = finding["suppressed"]
        if "steps" in finding:
            entry["steps"] = [{**step, "file": step["file"] or UNKNOWN,
                               "line": step["line"] or UNKNOWN} for step in finding["steps"]]
            entry["effect"] = finding["effect"] or UNKNOWN
            entry["excerpt"] = finding["excerpt"] or UNKNOWN
        findings.append(entry)
    return findings


def _tool(tool: dict) -> dict:
    """A model-callable tool: its exposed name, framework, effects and what governs it."""
    return {"name": tool["name"], "framework": tool["framework"],
            "location": f"{tool['file']}:{tool['line']}" if tool["file"] else UNKNOWN,
            "registered": bool(tool["registrations"]),
            "effects": [{"callee": e["callee"], "tier": e["tier"],
                         "location": f"{e['file']}:{e['line']}", "governance": e["governance"]}
                        for e in tool["effects"]],
            "governance": tool["governance"], "findings": tool["findings"]}


def recommendation(code: str) -> str:
    """The first sentence of the code's "How to fix" (one source of remediation text)."""
    try:
        text = code_doc(code)
    except (FileNotFoundError, OSError):
        return UNKNOWN
    section = text.split("## How to fix", 1)
    if len(section) < 2:
        return UNKNOWN
    paragraph = " ".join(section[1].split("\n## ", 1)[0].split())
    if not paragraph:
        return UNKNOWN
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[:end + 1]


def _row(row: dict) -> dict:
    return {"emu": row["emu_key"], "decision_point": row["decision_point"] or UNKNOWN,
            "required_context": row["required_context"],
            "trigger_reachable": row["trigger_reachable"],
            "action_connected": row["action_connected"],
            "project_coherent": row["project_coherent"], "reasons": row["reasons"],
            "why": row.get("why", [])}
