"""`topo check -f junit`: JUnit XML for CI test-report views (GitLab, Jenkins, Azure).

One `<testsuite name="topo">`; one `<testcase>` per reported, unsuppressed finding
(`classname` the code, `name` the place and symbol, `file`/`line` attributes), failed with a
`<failure>` when it is at or above `--fail-on`, passing with the message in `<system-out>`
below it; one `<testcase>` with an `<error>` per input that could not be read; and a single
passing `<testcase>` when there is nothing at all, so a clean run still shows one test. Text is
escaped for XML 1.0, which cannot carry most control characters: those are written as `\\xNN`.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from topo.audit.model import Severity
from topo.reports.ci_paths import active_findings, repository_file

__all__ = ["render_junit"]

# Characters XML 1.0 does not allow, even escaped (and the noncharacters U+FFFE/U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _attribute(text: object) -> str:
    return quoteattr(_clean(str(text)))


def _text(text: str) -> str:
    return escape(_clean(text))


def render_junit(document: dict, summary: str) -> str:
    fail_on = Severity.parse(document["gate"]["fail_on"])
    cases, failures, errors = [], 0, 0
    for finding in active_findings(document):
        failing = Severity.parse(finding["severity"]) >= fail_on
        failures += failing
        cases.append(_finding_case(document, finding, failing))
    for unknown in document["unknowns"]:
        errors += 1
        where = unknown["file"] + (f":{unknown['line']}" if unknown.get("line") else "")
        cases.append(f'    <testcase classname="topo.unknown" name={_attribute(where)} '
                     f'file={_attribute(repository_file(document, unknown["file"]))}>\n'
                     f'      <error type="not-read" message={_attribute(unknown["reason"])}/>\n'
                     f'    </testcase>')
    if not cases:
        cases.append(f'    <testcase classname="topo" name={_attribute(summary)}/>')
    head = (f'<testsuites name="topo" tests="{len(cases)}" failures="{failures}" '
            f'errors="{errors}">\n'
            f'  <testsuite name="topo" tests="{len(cases)}" failures="{failures}" '
            f'errors="{errors}" skipped="0">\n')
    tail = (f'    <system-out>{_text(summary)}</system-out>\n'
            '  </testsuite>\n</testsuites>\n')
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + head + "\n".join(cases) + "\n" + tail


def _finding_case(document: dict, finding: dict, failing: bool) -> str:
    file = repository_file(document, finding["file"])
    cell = finding.get("cell")
    where = f"{finding['line']}" if cell is None else f"cell_{cell['index']}:{cell['line']}"
    name = f"{file}:{where} {finding['symbol']}".rstrip()
    detail = (f"{file}:{where}:{finding.get('column') or 1}: {finding['code']} "
              f"[{finding['severity']}] {finding['message']}\n"
              f"fingerprint: {finding['fingerprint']}\nhelp: topo explain {finding['code']}")
    opening = (f'    <testcase classname={_attribute("topo." + finding["code"])} '
               f'name={_attribute(name)} file={_attribute(file)} line="{finding["line"]}">')
    if failing:
        body = (f'      <failure type={_attribute(finding["code"])} '
                f'message={_attribute(finding["message"])}>{_text(detail)}</failure>')
    else:
        body = f'      <system-out>{_text(detail)}</system-out>'
    return f"{opening}\n{body}\n    </testcase>"
