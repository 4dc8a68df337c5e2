"""`topo check -f gitlab`: a GitLab Code Quality report (the `codequality` artifact).

A JSON array with one issue per reported, unsuppressed finding: `description` (the message),
`check_name` (the code), `fingerprint` (topo's line-independent one, so GitLab tracks an issue
across commits), `severity`, `location.path` (repository-relative) and `location.lines.begin`,
plus `categories: ["Security"]` and `type: "issue"`. A notebook finding's description names
its cell and line (`lines.begin` counts the joined code cells, as in the JSON document). Severities map critical → blocker,
high → critical, medium → major, low → minor (GitLab's five levels; `info` is unused).
"""

from __future__ import annotations

import json

from topo.reports.ci_paths import active_findings, repository_file

__all__ = ["render_gitlab", "GITLAB_SEVERITY"]

GITLAB_SEVERITY = {"critical": "blocker", "high": "critical", "medium": "major", "low": "minor"}


def _cell(finding: dict) -> str:
    cell = finding.get("cell")
    return "" if cell is None else f"(cell {cell['index']}, line {cell['line']}) "


def render_gitlab(document: dict, summary: str = "") -> str:
    issues = [{
        "type": "issue",
        "description": f"{finding['code']}: {_cell(finding)}{finding['message']}",
        "check_name": finding["code"],
        "categories": ["Security"],
        "fingerprint": finding["fingerprint"],
        "severity": GITLAB_SEVERITY[finding["severity"]],
        "location": {"path": repository_file(document, finding["file"]),
                     "lines": {"begin": finding["line"]}},
    } for finding in active_findings(document)]
    return json.dumps(issues, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
