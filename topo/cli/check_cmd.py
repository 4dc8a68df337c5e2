"""`topo check PATH`: the CI gate (exit 0 pass, 1 findings at/above the threshold, 2 error)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

import click

from topo.cli.audit_cmd import audit_request
from topo.cli.errors import UserError
from topo.cli.options import ScanOptions, Verbosity, project_config, scan_options, \
    verbosity_options
from topo.audit.gate import GateError, GateOutcome, GateRequest, run_gate
from topo.audit.model import Severity, SuppressionKind
from topo.reports.escape import escape_text
from topo.reports.formats import GATE_FORMATS, audit_format
from topo.reports.gate_report import gate_document, render_gate_text
from topo.reports.sarif_report import render_sarif

__all__ = ["check"]

_SEVERITIES = tuple(severity.value for severity in sorted(Severity, reverse=True))
# GitHub code scanning reads at most this many results of one run.
_SARIF_RESULT_LIMIT = 5000


@click.command("check")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--fail-on", type=click.Choice(_SEVERITIES, case_sensitive=False), default=None,
              help="Fail on unsuppressed findings of this severity or above (default: high, "
                   "or fail-on in [tool.topo]).")
@click.option("--baseline", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="FILE", help="Accept the findings recorded in this baseline: they are "
                                   "not reported (SARIF: external suppressions).")
@click.option("--write-baseline", type=click.Path(path_type=Path, dir_okay=False),
              default=None, metavar="FILE",
              help="Record every current unsuppressed finding in FILE, then gate against it.")
@click.option("--changed-since", metavar="REV", default=None,
              help="Report only findings whose evidence touches a file changed since the "
                   "merge base of REV and HEAD (committed, staged, unstaged or untracked). "
                   "The whole repository is still analysed.")
@click.option("--exit-zero", is_flag=True,
              help="Report only: exit 0 whatever is found (2 still means a usage error).")
@click.option("--allow-partial", is_flag=True,
              help="Gate on what could be read when some inputs could not (default: exit 2).")
@click.option("-f", "--format", "fmt", type=click.Choice(GATE_FORMATS),
              default="text", show_default=True)
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE|-",
              help="Where to write the report; '-' is standard output.")
@scan_options
@verbosity_options
def check(path: Path, fail_on: str | None, baseline: Path | None, write_baseline: Path | None,
          changed_since: str | None, exit_zero: bool, allow_partial: bool, fmt: str,
          output: str, scan: ScanOptions, verbosity: Verbosity) -> None:
    """Gate a repository in CI: audit PATH and fail on findings at or above a severity.

    Exit 0 when no unsuppressed finding is at or above --fail-on, 1 when some is, 2 on a
    usage, configuration or scan error, including a partial scan (an input that could not be
    read) unless --allow-partial. --exit-zero makes every completed run exit 0.

    Text output is one `path:line:col: CODE [severity] message` line per reported finding, then
    a summary; -f json is the audit document with a `gate` section; -f sarif is SARIF 2.1.0 for
    GitHub code scanning. Findings suppressed by `# topo: ignore[CODE] -- why` comments or by
    the baseline are listed in json/sarif (marked suppressed), not in text.

    Options not given fall back to [tool.topo] in PATH/pyproject.toml, then to the defaults.
    """
    config = project_config(path)
    severity = fail_on or (config.fail_on.value if config.fail_on else Severity.HIGH.value)
    request = GateRequest(
        audit=audit_request(path, **asdict(scan), config=config),
        fail_on=Severity.parse(severity), baseline=baseline, write_baseline=write_baseline,
        changed_since=changed_since, allow_partial=allow_partial, exit_zero=exit_zero)
    progress = verbosity.progress()
    try:
        outcome = run_gate(request, progress=progress)
    except GateError as error:
        raise UserError(str(error)) from None
    finally:
        progress.finish()
    _tell(outcome, verbosity)
    if fmt == "json":   # streamed: the document of a large repository is never one string
        document = gate_document(outcome)
        _stream(lambda out: audit_format("json").write(document, out), output)
    else:
        _write(_render(outcome, fmt, path), output)
    raise SystemExit(outcome.exit_code)


def _render(outcome: GateOutcome, fmt: str, path: Path) -> str:
    if fmt == "text":
        return render_gate_text(outcome, path.as_posix())
    document = gate_document(outcome)
    if len(document["findings"]) > _SARIF_RESULT_LIMIT:
        click.echo(f"topo: warning: {len(document['findings'])} SARIF results; GitHub code "
                   f"scanning reads only the first {_SARIF_RESULT_LIMIT} of a run", err=True)
    return render_sarif(document)


def _tell(outcome: GateOutcome, verbosity: Verbosity) -> None:
    """Warnings and unknowns on standard error: the report itself stays on its own stream."""
    for unknown in outcome.result.unknowns:
        where = f"{unknown.file}:{unknown.line}" if unknown.line else unknown.file
        click.echo(escape_text(f"topo: unknown: {where}: {unknown.reason}"), err=True)
    for note in outcome.notes:
        click.echo(f"topo: warning: {note}", err=True)
    if outcome.baseline_written is not None:
        accepted = sum(1 for f in outcome.result.findings if f.suppression is not None
                       and f.suppression.kind is SuppressionKind.EXTERNAL)
        verbosity.note(f"topo: wrote baseline {outcome.baseline_written} "
                       f"({accepted} finding(s))")


def _stream(write: Callable[[TextIO], None], output: str) -> None:
    """`write` the report to stdout (`-`) or to the file `output`, as it is produced."""
    if output == "-":
        write(sys.stdout)
        sys.stdout.flush()
        return
    try:
        with open(output, "w", encoding="utf-8") as stream:
            write(stream)
    except OSError as error:
        raise UserError(f"cannot write {output}: {error.strerror or error}") from None


def _write(text: str, output: str) -> None:
    text = escape_text(text)
    if output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {output}: {error.strerror or error}") from None
