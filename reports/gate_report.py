"""What `topo check` prints: one line per finding (text), or the audit document with a `gate`
section (json, and sarif rendered from it).

The document keeps the full audit's finding ids (`AUTH-007` means the same finding in
`topo audit` and `topo check` output of one tree); findings the `--changed-since` base already had are left
out of `findings`, and counted in `gate`.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Callable

import click

from topo.audit.gate import GateOutcome, GateStatus
from topo.audit.model import Finding
from topo.reports.code_frame import SourceLines, code_frame
from topo.reports.notebook_places import NotebookPlaces, source_lines
from topo.reports.document import audit_document
from topo.reports.escape import escape_document, escape_text

__all__ = ["gate_document", "render_gate_text", "gate_summary"]


def gate_document(outcome: GateOutcome) -> dict:
    document = audit_document(outcome.result)
    reported = {finding.fingerprint for finding in outcome.reported}
    document["findings"] = [f for f in document["findings"] if f["fingerprint"] in reported]
    ids = {f["fingerprint"]: f["id"] for f in document["findings"]}
    request = outcome.request
    document["gate"] = {
        "status": outcome.status.value,
        "exit_code": outcome.exit_code,
        "fail_on": request.fail_on.value,
        "allow_partial": request.allow_partial,
        "exit_zero": request.exit_zero,
        "baseline": _path(outcome.baseline_used),
        "baseline_written": _path(outcome.baseline_written),
        "changed_since": request.changed_since,
        "changed_files": None if outcome.changed is None else sorted(outcome.changed),
        "base_commit": outcome.base_commit,
        "ignore_suppressions": request.audit.ignore_suppressions,
        "counts": dataclasses.asdict(outcome.counts),
        "failing": [ids[f.fingerprint] for f in outcome.failing],
    }
    return escape_document(document)


def _path(path: object) -> str | None:
    return None if path is None else str(path)


_SEVERITY_COLOUR = {"critical": "red", "high": "red", "medium": "yellow", "low": "blue"}


def render_gate_text(outcome: GateOutcome, display_root: str = ".", *, color: bool = False,
                     frames: bool = True) -> str:
    """`path:line:col: CODE [severity] message` per unsuppressed finding, with the source
    line(s) under it and a caret under the span (`frames`), and the `topo explain` hint; then
    the summary. Paths are `display_root` (the PATH as given) joined with the root-relative
    file. `color` adds ANSI colours (the caller decides: a terminal, --color, NO_COLOR)."""
    style = _styler(color)
    sources = SourceLines(outcome.result.root, source_lines)
    places = NotebookPlaces(outcome.result.facts.files)
    lines = []
    for finding in outcome.active:
        lines.append(_line(finding, display_root, places, style))
        if frames:
            file = finding.location.file
            lines.extend(code_frame(sources.lines(file), finding.location, style=style,
                                    label=lambda line, file=file: places.label(file, line)))
            lines.append(f"  {style('help:', 'help')} topo explain {finding.code.id}")
    lines.append(gate_summary(outcome))
    return escape_text("\n".join(lines) + "\n")


def _styler(color: bool) -> Callable[[str, str], str]:
    if not color:
        return lambda text, role: text

    def style(text: str, role: str) -> str:
        match role:
            case "path":
                return click.style(text, bold=True)
            case "gutter" | "help":
                return click.style(text, fg="cyan")
            case "caret":
                return click.style(text, fg="red", bold=True)
            case severity if severity in _SEVERITY_COLOUR:
                return click.style(text, fg=_SEVERITY_COLOUR[severity], bold=True)
        return text
    return style


def _line(finding: Finding, display_root: str, places: NotebookPlaces,
          style: Callable[[str, str], str]) -> str:
    location = finding.location
    path = posixpath.normpath(posixpath.join(display_root, location.file))
    where = f"{path}:{places.position(location)}"
    return (f"{style(where, 'path')}: {style(finding.code.id, finding.severity.value)} "
            f"[{finding.severity.value}] {finding.message}")


def gate_summary(outcome: GateOutcome) -> str:
    counts = outcome.counts
    threshold = outcome.request.fail_on.value
    match outcome.status:
        case GateStatus.PARTIAL:
            verdict = (f"incomplete: {counts.unknowns} input(s) could not be read, so there "
                       "is no verdict (--allow-partial gates on what was read)")
        case GateStatus.FAILED:
            verdict = f"failed: {counts.failing} finding(s) at or above {threshold}"
        case GateStatus.PASSED:
            verdict = f"passed: no finding at or above {threshold}"
    details = [f"{counts.active} reported", f"{counts.suppressed_in_source} suppressed "
               "in source", f"{counts.baselined} in the baseline"]
    if outcome.changed is not None:
        details.append(f"{counts.outside_changes} already present at "
                       f"{outcome.request.changed_since}")
    if outcome.result.partial and outcome.request.allow_partial:
        details.append(f"partial scan: {counts.unknowns} input(s) could not be read")
    if outcome.request.exit_zero:
        details.append("exit 0 (--exit-zero)")
    return f"topo check: {verdict}; {', '.join(details)}"
