"""The one list of report formats: the name `-f` takes, the file it is written to and its
renderer. The CLI and the `[tool.topo] formats` validation read it; nothing else lists them.

`topo audit` writes `AUDIT_FORMATS` (ARCHITECTURE.md, CLI table); `topo check` prints one of
`GATE_FORMATS` (text is the gate's own listing; json and sarif are the audit document with its
`gate` section).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import TextIO

from topo.reports.escape import escape_text
from topo.reports.html_report import render_html
from topo.reports.json_report import json_pieces, render_json
from topo.reports.markdown_report import render_markdown
from topo.reports.sarif_report import render_sarif
from topo.reports.yaml_report import render_yaml

__all__ = ["ReportFormat", "AUDIT_FORMATS", "AUDIT_FORMAT_NAMES", "DEFAULT_AUDIT_FORMATS",
           "GATE_FORMATS", "audit_format"]


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
        pieces = iter(self.pieces(document))
        while batch := list(islice(pieces, _BATCH)):
            out.write(escape_text("".join(batch)))


_BATCH = 16384   # pieces per write: few calls, each well under a megabyte


AUDIT_FORMATS: tuple[ReportFormat, ...] = (
    ReportFormat("yaml", "TOPOLOGY_STATE.yaml", render_yaml),
    ReportFormat("html", "TOPOLOGY_STATE.html", render_html),
    ReportFormat("md", "TOPOLOGY_STATE.md", render_markdown),
    ReportFormat("sarif", "TOPOLOGY_STATE.sarif", render_sarif),
    ReportFormat("json", "TOPOLOGY_STATE.json", render_json, json_pieces),
)
AUDIT_FORMAT_NAMES: tuple[str, ...] = tuple(f.name for f in AUDIT_FORMATS)
DEFAULT_AUDIT_FORMATS: tuple[str, ...] = ("yaml", "html")
GATE_FORMATS: tuple[str, ...] = ("text", "json", "sarif")

_BY_NAME = {f.name: f for f in AUDIT_FORMATS}


def audit_format(name: str) -> ReportFormat | None:
    """The audit format called `name` (as written: lower case, no spaces), or None."""
    return _BY_NAME.get(name)
