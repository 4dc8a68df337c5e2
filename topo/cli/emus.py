"""`topo emus validate DIR`: schema, trigger and lint checks over an `emus/` directory."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import click

from topo.audit import policy
from topo.cli.errors import ExitCode
from topo.audit.model import Finding

__all__ = ["emus"]


@dataclass(frozen=True, slots=True)
class ValidateRequest:
    directory: Path
    retention_days: int
    fmt: str


@click.group()
def emus() -> None:
    """Check Memrail EMU policy files (emus/*.jsonl)."""


@emus.command("validate")
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False))
@click.option("--retention-days", type=click.IntRange(min=1), default=90, show_default=True,
              help="Event retention; longer trigger windows are reported (RETENTION-WINDOW).")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def validate(directory: Path, retention_days: int, fmt: str) -> None:
    """Validate every EMU in DIRECTORY as the Memrail CLI reads it.

    Reads each *.jsonl file (not recursively; dotfiles and .emu.lock.jsonl are skipped; blank and
    '#' lines are ignored), checks each EMU against the EMU JSON Schema, parses its trigger, and
    lints it (POLICY-GAP, UNGUARDED-PLACEHOLDER, RETENTION-WINDOW).

    Exit 0 when clean, 1 when there are findings, 2 when a file or line could not be read (bad
    JSON, duplicate emu_key, unreadable directory); the other EMUs are still checked.
    """
    request = ValidateRequest(directory, retention_days, fmt)
    report = policy.validate_directory(
        request.directory, policy.PolicyConfig(retention_days=request.retention_days))
    if request.fmt == "json":
        click.echo(json.dumps(_json_document(report), indent=2, sort_keys=True))
    else:
        _print_text(report)
    if report.errors:
        raise SystemExit(ExitCode.ERROR)
    if report.findings:
        raise SystemExit(ExitCode.FINDINGS)


def _print_text(report: policy.PolicyReport) -> None:
    for error in report.errors:
        click.echo(f"{error.location.file}:{error.location.line}: error: {error.message}",
                   err=True)
    for finding in report.findings:
        click.echo(_finding_line(finding))
    partial = " (partial: some input could not be read)" if report.errors else ""
    click.echo(f"{len(report.emus)} EMUs checked: {len(report.findings)} findings, "
               f"{len(report.errors)} errors{partial}", err=True)


def _finding_line(finding: Finding) -> str:
    where = f"{finding.location.file}:{finding.location.line}"
    return (f"{where}: {finding.code.id} [{finding.severity.value}] "
            f"{finding.emu_key or finding.symbol}: {finding.message}")


def _json_document(report: policy.PolicyReport) -> dict:
    return {
        "schema": "topo-emus/1",
        "partial": bool(report.errors),
        "emus": len(report.emus),
        "findings": [{
            "code": f.code.id, "severity": f.severity.value, "title": f.code.title,
            "message": f.message, "file": f.location.file, "line": f.location.line,
            "emu_key": f.emu_key,
        } for f in report.findings],
        "errors": [{"file": e.location.file, "line": e.location.line, "message": e.message}
                   for e in report.errors],
    }


