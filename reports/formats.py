"""The one list of report formats: the name `-f` takes, the file it is written to and its
renderer. The CLI and the `[tool.topo] formats` validation read it; nothing else lists them.

`topo audit` writes `AUDIT_FORMATS` (ARCHITECTURE.md, CLI table); `topo check` prints one of
`GATE_FORMATS` (text is the gate's own listing; json and sarif are the audit document with its
`gate` section; github, junit and gitlab are what those CI systems read, rendered from the
same document).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TextIO

from topo.audit.gate import GateOutcome
from topo.reports.escape import escape_text
from topo.reports.gate_report import gate_document, gate_summary, render_gate_text
from topo.reports.github_report import render_github
from topo.reports.gitlab_report import render_gitlab
from topo.reports.json_report import json_pieces, render_json
from topo.reports.markdown_report import render_markdown
from topo.reports.sarif_report import render_sarif

__all__ = ["ReportFormat", "AUDIT_FORMATS", "AUDIT_FORMAT_NAMES", "DEFAULT_AUDIT_FORMATS",
           "GateFormat", "GateView", "GATE_FORMATS", "GATE_FORMAT_NAMES", "audit_format",
           "gate_format"]


@dataclass(frozen=True, slots=True)
class ReportFormat:
    name: str                                        # as `-f` and `[tool.topo] formats` say it
    file_name: str                                   # in the output directory
    render: Callable[[dict], str] = field(repr=False)   # audit document → text
    # The same text in pieces, for a format whose text can be large (else None).
    pieces: Callable[[dict], Iterable[str]] | None = field(default=None, repr=False)

    def write(self, document: dict, out: TextIO) -> None:
        """Write the text `render` returns to `out`; a format with `pieces` is written as it
        is produced, a batch at a time, so the whole text is never one string in memory. Lone
        surrogates (file names that are not UTF-8) are written escaped (`escape.py`)."""
        if self.pieces is None:
            out.write(escape_text(self.render(document)))
            return
        batch: list[str] = []
        size = 0
        for piece in self.pieces(document):
            batch.append(piece)
            size += len(piece)
            if size >= _BATCH:
                out.write(escape_text("".join(batch)))
                batch, size = [], 0
        if batch:
            out.write(escape_text("".join(batch)))


# Characters per write: few calls, each well under a megabyte (pieces differ in size: a
# JSON entry is one piece).
_BATCH = 256 * 1024


# The renderers that pull in a library (jinja2, PyYAML, xml) are imported when a run asks for
# their format: a tenth of a second that a run writing JSON or SARIF does not pay.

def _render_yaml(document: dict) -> str:
    from topo.reports.yaml_report import render_yaml as render
    return render(document)


def _render_html(document: dict) -> str:
    from topo.reports.html_report import render_html as render
    return render(document)


def _render_junit(document: dict, summary: str) -> str:
    from topo.reports.junit_report import render_junit as render
    return render(document, summary)


AUDIT_FORMATS: tuple[ReportFormat, ...] = (
    ReportFormat("yaml", "TOPOLOGY_STATE.yaml", _render_yaml),
    ReportFormat("html", "TOPOLOGY_STATE.html", _render_html),
    ReportFormat("md", "TOPOLOGY_STATE.md", render_markdown),
    ReportFormat("sarif", "TOPOLOGY_STATE.sarif", render_sarif),
    ReportFormat("json", "TOPOLOGY_STATE.json", render_json, json_pieces),
)
AUDIT_FORMAT_NAMES: tuple[str, ...] = tuple(f.name for f in AUDIT_FORMATS)
DEFAULT_AUDIT_FORMATS: tuple[str, ...] = ("yaml", "html")


@dataclass(frozen=True, slots=True)
class GateView:
    """How `topo check` shows its outcome: paths joined to the PATH as given; colours."""

    display_root: str = "."
    color: bool = False


@dataclass(frozen=True, slots=True)
class GateFormat:
    name: str                                               # as `check -f` says it
    file_name: str                                          # when `-o` names a directory
    render: Callable[[GateOutcome, GateView], str] = field(repr=False)


def _from_document(render: Callable[[dict], str]) -> Callable[[GateOutcome, GateView], str]:
    return lambda outcome, view: escape_text(render(gate_document(outcome)))


def _ci(render: Callable[[dict, str], str]) -> Callable[[GateOutcome, GateView], str]:
    return lambda outcome, view: escape_text(render(gate_document(outcome),
                                                    gate_summary(outcome)))


GATE_FORMATS: tuple[GateFormat, ...] = (
    GateFormat("text", "topo-check.txt",
               lambda outcome, view: render_gate_text(outcome, view.display_root,
                                                      color=view.color)),
    GateFormat("json", "TOPOLOGY_STATE.json", _from_document(render_json)),
    GateFormat("sarif", "TOPOLOGY_STATE.sarif", _from_document(render_sarif)),
    GateFormat("github", "topo-annotations.txt", _ci(render_github)),
    GateFormat("junit", "topo-junit.xml", _ci(_render_junit)),
    GateFormat("gitlab", "gl-code-quality-report.json", _ci(render_gitlab)),
)
GATE_FORMAT_NAMES: tuple[str, ...] = tuple(f.name for f in GATE_FORMATS)

_BY_NAME = {f.name: f for f in AUDIT_FORMATS}
_GATE_BY_NAME = {f.name: f for f in GATE_FORMATS}


def audit_format(name: str) -> ReportFormat | None:
    """The audit format called `name` (as written: lower case, no spaces), or None."""
    return _BY_NAME.get(name)


def gate_format(name: str) -> GateFormat | None:
    """The `topo check` format called `name`, or None."""
    return _GATE_BY_NAME.get(name)
