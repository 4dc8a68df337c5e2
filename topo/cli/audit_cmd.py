"""`topo audit PATH`: the full audit, written as reports."""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import click

from topo.analyzers.discovery.inventory import DiscoveryConfig
from topo.analyzers.frontend.executor import ExecutorError, parse_executor
from topo.cli.errors import UserError
from topo.cli.options import ScanOptions, Verbosity, project_config, scan_options, \
    verbosity_options
from topo.audit.config import ProjectConfig
from topo.audit.pipeline import AuditError, AuditRequest, default_cache_dir, run_audit
from topo.audit.policy import DEFAULT_RETENTION_DAYS
from topo.reports.document import audit_document
from topo.reports.formats import (AUDIT_FORMAT_NAMES, DEFAULT_AUDIT_FORMATS, ReportFormat,
                                  audit_format)

__all__ = ["audit", "audit_request"]


@dataclass(frozen=True, slots=True)
class AuditOutput:
    formats: tuple[ReportFormat, ...]
    out: str


def _formats(value: str) -> tuple[ReportFormat, ...]:
    formats: list[ReportFormat] = []
    for name in dict.fromkeys(f.strip().lower() for f in value.split(",") if f.strip()):
        known = audit_format(name)
        if known is None:
            raise UserError(f"unknown format {name!r} (formats: {', '.join(AUDIT_FORMAT_NAMES)})")
        formats.append(known)
    if not formats:
        raise UserError("no format given")
    return tuple(formats)


def audit_request(path: Path, *, jobs: int | None = None, cache_dir: Path | None = None,
                  no_cache: bool = False, include_tests: bool | None = None,
                  exclude: tuple[str, ...] = (), retention_days: int | None = None,
                  ignore_suppressions: bool = False, executor: str | None = None,
                  config: ProjectConfig | None = None) -> AuditRequest:
    """The one place CLI options become an AuditRequest (shared by audit, graph, check).

    Precedence: an option given here (not None), then `[tool.topo]` of PATH/pyproject.toml
    (`config`, read when not passed), then the default. `exclude` adds to the configured list.
    """
    config = config if config is not None else project_config(path)
    tests = include_tests if include_tests is not None else bool(config.include_tests)
    retention = retention_days or config.retention_days or DEFAULT_RETENTION_DAYS
    return AuditRequest(
        root=path,
        discovery=DiscoveryConfig(include_tests=tests, exclude=(*config.exclude, *exclude)),
        jobs=jobs, cache_dir=None if no_cache else (cache_dir or default_cache_dir()),
        retention_days=retention, ignore_suppressions=ignore_suppressions,
        executor=_executor(executor))


def _executor(text: str | None) -> str | None:
    """`--executor` as given, once checked (a malformed one is a usage error, exit 2)."""
    try:
        parse_executor(text)
    except ExecutorError as error:
        raise UserError(str(error)) from None
    return text


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("-f", "--format", "formats", default=None,
              help=f"Comma-separated report formats: {', '.join(AUDIT_FORMAT_NAMES)} "
                   f"(default: {','.join(DEFAULT_AUDIT_FORMATS)}, or formats in [tool.topo]).")
@click.option("-o", "--out", default="topology-audit", show_default=True,
              help="Output directory, or '-' to write the single named format to stdout.")
@scan_options
@verbosity_options
def audit(path: Path, formats: str | None, out: str, scan: ScanOptions,
          verbosity: Verbosity) -> None:
    """Audit the decision topology of the repository at PATH.

    Reads Python and TypeScript sources and emus/*.jsonl (parsing only: nothing is imported or
    run) and writes the requested reports into the output directory. Files that cannot be read
    are listed as unknowns and the result is marked partial.

    Exit 0 when the audit ran (findings do not change the exit code; use `topo check` to gate),
    2 when it could not run.
    """
    config = project_config(path)
    names = formats or ",".join(config.formats or DEFAULT_AUDIT_FORMATS)
    output = AuditOutput(_formats(names), out)
    if output.out == "-" and len(output.formats) != 1:
        raise UserError("-o - writes one format to stdout; name exactly one with -f")
    request = audit_request(path, **asdict(scan), config=config)
    progress = verbosity.progress()
    try:
        result = run_audit(request, progress=progress)
    except AuditError as error:
        raise UserError(str(error)) from None
    finally:
        progress.finish()
    document = audit_document(result)
    if result.partial:
        click.echo(f"topo: partial result: {len(result.unknowns)} input(s) could not be read "
                   "(listed under unknowns)", err=True)
    if output.out == "-":
        output.formats[0].write(document, sys.stdout)
        return
    directory = Path(output.out)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for fmt in output.formats:
            with open(directory / fmt.file_name, "w", encoding="utf-8") as stream:
                fmt.write(document, stream)
    except OSError as error:
        raise UserError(f"cannot write reports to {directory}: {error.strerror}") from None
    for fmt in output.formats:
        click.echo(str(directory / fmt.file_name))
    verbosity.note(_summary_line(result.findings))


def _summary_line(findings) -> str:  # noqa: ANN001 - a tuple of Finding
    """`9 findings: 4 critical, 2 high, 2 medium` (suppressed ones are not counted)."""
    active = [f for f in findings if getattr(f, "suppression", None) is None]
    if not active:
        return "no findings"
    counts = {}
    for finding in active:
        counts[finding.severity.value] = counts.get(finding.severity.value, 0) + 1
    order = ("critical", "high", "medium", "low")
    parts = ", ".join(f"{counts[s]} {s}" for s in order if s in counts)
    return f"{len(active)} finding{'s' if len(active) != 1 else ''}: {parts}"
