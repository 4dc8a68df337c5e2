"""`topo check PATH`: the CI gate (exit 0 pass, 1 findings at/above the threshold, 2 error)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from topo.cli.audit_cmd import audit_request
from topo.cli.color import color_option, use_color
from topo.cli.errors import UserError
from topo.cli.options import (CodeOptions, ConfigOptions, ScanOptions, Verbosity, code_options,
                              config_options, project_config, scan_options, verbosity_options)
from topo.cli.output import FileTarget, file_output_option, file_target, write_file
from topo.audit.gate import GateError, GateOutcome, GateRequest, run_gate
from topo.audit.model import Severity, SuppressionKind
from topo.reports.coverage_report import coverage_line
from topo.reports.escape import escape_text
from topo.reports.formats import GATE_FORMAT_NAMES, GateView, gate_format

__all__ = ["check"]

_SEVERITIES = tuple(severity.value for severity in sorted(Severity, reverse=True))
# GitHub code scanning reads at most this many results of one run.
_SARIF_RESULT_LIMIT = 5000


@click.command("check")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--fail-on", type=click.Choice(_SEVERITIES, case_sensitive=False), default=None,
              help="Fail on unsuppressed findings of this severity or above (default: high, "
                   "or fail-on in the configuration).")
@click.option("--baseline", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="FILE", help="Accept the findings recorded in this baseline: they are "
                                   "not reported (SARIF: external suppressions).")
@click.option("--write-baseline", type=click.Path(path_type=Path, dir_okay=False),
              default=None, metavar="FILE",
              help="Record every current unsuppressed finding in FILE, then gate against it.")
@click.option("--changed-since", metavar="REV", default=None,
              help="Report only findings that are new since REV: the merge base of REV and "
                   "HEAD is audited too (read from git, outside the tree) and its findings "
                   "are subtracted by fingerprint. A bad REV is exit 2.")
@click.option("--exit-zero", is_flag=True,
              help="Report only: exit 0 whatever is found (2 still means a usage error).")
@click.option("--allow-partial", is_flag=True,
              help="Gate on what could be read when some inputs could not (default: exit 2).")
@click.option("-f", "--format", "fmt", type=click.Choice(GATE_FORMAT_NAMES),
              default="text", show_default=True)
@file_output_option("-o", "--output")
@color_option
@scan_options
@config_options
@code_options
@verbosity_options
def check(path: Path, fail_on: str | None, baseline: Path | None, write_baseline: Path | None,
          changed_since: str | None, exit_zero: bool, allow_partial: bool, fmt: str,
          output: str, color: str, scan: ScanOptions, settings: ConfigOptions,
          codes: CodeOptions, verbosity: Verbosity) -> None:
    """Gate a repository in CI: audit PATH and fail on findings at or above a severity.

    Exit 0 when no unsuppressed finding is at or above --fail-on, 1 when some is, 2 on a
    usage, configuration or scan error, including a partial scan (an input that could not be
    read) unless --allow-partial. --exit-zero makes every completed run exit 0.

    Text output is one `path:line:col: CODE [severity] message` line per reported finding with
    its source line and a `topo explain CODE` hint, then a summary; -f json is the audit
    document with a `gate` section; -f sarif is SARIF 2.1.0 for GitHub code scanning; -f
    github prints workflow annotations, -f junit JUnit XML, -f gitlab a GitLab Code Quality
    report. Findings suppressed by `# topo: ignore[CODE] -- why` comments or by the baseline
    are listed in json/sarif (marked suppressed), not in the others.

    Options not given fall back to the configuration (--config FILE, else the closest
    topo.toml, .topo.toml or pyproject.toml [tool.topo] at or above PATH), then to the
    defaults. Codes left out by --select/--ignore/per-file-ignores are not reported at all.
    """
    gate = gate_format(fmt)
    target = file_target(output, gate.file_name)
    config = project_config(path, settings)
    severity = fail_on or (config.fail_on.value if config.fail_on else Severity.HIGH.value)
    request = GateRequest(
        audit=audit_request(path, scan, config=config, settings=settings, codes=codes),
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
    if fmt == "sarif" and len(outcome.reported) > _SARIF_RESULT_LIMIT:
        click.echo(f"topo: warning: {len(outcome.reported)} SARIF results; GitHub code "
                   f"scanning reads only the first {_SARIF_RESULT_LIMIT} of a run", err=True)
    colored = fmt == "text" and use_color(color, to_terminal=_is_terminal(target),
                                          environment=os.environ)
    text = gate.render(outcome, GateView(path.as_posix(), colored))
    write_file(target, escape_text(text), sys.stdout)
    verbosity.note(coverage_line(outcome.result.coverage))
    raise SystemExit(outcome.exit_code)


def _is_terminal(target: FileTarget) -> bool:
    if target.path is not None:
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


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
