"""`topo check -f github`: GitHub Actions workflow commands, one annotation per finding.

`::error file=F,line=L,col=C,endLine=…,endColumn=…,title=CODE::[severity] message` puts the
finding on the pull request's diff (in a notebook, on the file, with the cell and line in the
message). Findings at or above `--fail-on` are `error`, the others
`warning`; an input that could not be read is a `warning` on its file. Values are escaped as
the Actions toolkit does (`@actions/core` `command.ts`): `%`, CR and LF in the message;
those plus `:` and `,` in properties. The last line is the gate's summary, as plain text.
"""

from __future__ import annotations

from topo.audit.model import Severity
from topo.reports.ci_paths import active_findings, repository_file

__all__ = ["render_github", "escape_data", "escape_property"]


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(document: dict, summary: str) -> str:
    gate = document["gate"]
    fail_on = Severity.parse(gate["fail_on"])
    lines = [_annotation(document, finding, fail_on) for finding in active_findings(document)]
    for unknown in document["unknowns"]:
        properties = {"file": repository_file(document, unknown["file"]),
                      "line": unknown.get("line"), "title": "topo: not read"}
        lines.append(_command("warning", properties, f"could not be read: {unknown['reason']}"))
    lines.append(summary)
    return "\n".join(lines) + "\n"


def _annotation(document: dict, finding: dict, fail_on: Severity) -> str:
    level = "error" if Severity.parse(finding["severity"]) >= fail_on else "warning"
    properties = {"file": repository_file(document, finding["file"]), "line": finding["line"],
                  "col": finding.get("column"), "endLine": finding.get("end_line"),
                  "endColumn": finding.get("end_column"), "title": finding["code"]}
    if properties["endLine"] is None or properties["endColumn"] is None:
        properties["endLine"] = properties["endColumn"] = None
    place = ""
    if finding.get("cell") is not None:
        # A notebook's script line means nothing on GitHub's view of its JSON: name the cell.
        for key in ("line", "col", "endLine", "endColumn"):
            properties[key] = None
        place = f"cell {finding['cell']['index']}, line {finding['cell']['line']}: "
    message = (f"{place}[{finding['severity']}] {finding['message']} "
               f"(topo explain {finding['code']})")
    return _command(level, properties, message)


def _command(level: str, properties: dict, message: str) -> str:
    pairs = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items()
                     if value is not None)
    return f"::{level} {pairs}::{escape_data(message)}"
