"""`topo audit PATH`: the full audit, written as reports."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from topo.analyzers.discovery.inventory import DiscoveryConfig
from topo.analyzers.frontend.executor import ExecutorError, parse_executor
from topo.cli.errors import UserError
from topo.cli.options import (CodeOptions, ConfigOptions, ScanOptions, Verbosity, code_options,
                              code_selection, config_options, project_config, scan_options,
                              verbosity_options)
from topo.cli.output import STDOUT, FileTarget, directory_target, file_target
from topo.audit.config import ProjectConfig
from topo.audit.pipeline import AuditError, AuditRequest, default_cache_dir, run_audit
from topo.audit.policy import DEFAULT_RETENTION_DAYS
from topo.reports.coverage_report import coverage_line
from topo.reports.document import audit_document
from topo.reports.formats import (AUDIT_FORMAT_NAMES, DEFAULT_AUDIT_FORMATS, ReportFormat,
                                  audit_format)

__all__ = ["audit", "audit_request", "DEFAULT_OUT"]

DEFAULT_OUT = "topology-audit"


@dataclass(frozen=True, slots=True)
class AuditOutput:
    formats: tuple[ReportFormat, ...]
    out: str
    one_named: bool = False   # `-f` named exactly one format: `-o` is then a file


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


def audit_request(path: Path, scan: ScanOptions = ScanOptions(), *,
                  config: ProjectConfig | None = None, settings: ConfigOptions = ConfigOptions(),
                  codes: CodeOptions = CodeOptions()) -> AuditRequest:
    """The one place CLI options become an AuditRequest (shared by audit, graph, check).

    Precedence: an option given here (not None), then the configuration (`config`, read when
    not passed), then the default. `exclude`, `ignore` and `packs` add to the configured lists;
    `--select` replaces `select`.
    """
    config = config if config is not None else project_config(path, settings)
    tests = scan.include_tests if scan.include_tests is not None else bool(config.include_tests)
    retention = scan.retention_days or config.retention_days or DEFAULT_RETENTION_DAYS
    return AuditRequest(
        root=path,
        discovery=DiscoveryConfig(include_tests=tests, exclude=(*config.exclude, *scan.exclude)),
        jobs=scan.jobs,
        cache_dir=None if scan.no_cache else (scan.cache_dir or default_cache_dir()),
        retention_days=retention, ignore_suppressions=scan.ignore_suppressions,
        extra_packs=_distinct((*config.packs, *settings.packs)),
        selection=code_selection(codes, config),
        executor=_executor(scan.executor or config.executor))


def _distinct(paths: tuple[Path, ...]) -> tuple[Path, ...]:
    """The pack files, each once (the configuration and `--pack` may both name one)."""
    seen: dict[str, Path] = {}
    for path in paths:
        seen.setdefault(os.path.realpath(path), path)
    return tuple(seen.values())


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
                   f"(default: {','.join(DEFAULT_AUDIT_FORMATS)}, or formats in the configuration).")
@click.option("-o", "--out", default=None, metavar="DIR|FILE|-",
              help="Where to write: a directory (default: topology-audit); with one format "
                   "named by -f, a file (an existing directory, or one ending in /, gets the "
                   "usual file name); '-' writes the single format to stdout.")
@scan_options
@config_options
@code_options
@verbosity_options
def audit(path: Path, formats: str | None, out: str | None, scan: ScanOptions,
          settings: ConfigOptions, codes: CodeOptions, verbosity: Verbosity) -> None:
    """Audit the decision topology of the repository at PATH.

    Reads Python and TypeScript sources and emus/*.jsonl (parsing only: nothing is imported or
    run) and writes the requested reports into the output directory. Files that cannot be read
    are listed as unknowns and the result is marked partial.

    Exit 0 when the audit ran (findings do not change the exit code; use `topo check` to gate),
    2 when it could not run.
    """
    config = project_config(path, settings)
    names = formats or ",".join(config.formats or DEFAULT_AUDIT_FORMATS)
    chosen = _formats(names)
    output = AuditOutput(chosen, out or DEFAULT_OUT, formats is not None and len(chosen) == 1)
    if output.out == STDOUT and len(output.formats) != 1:
        raise UserError("-o - writes one format to stdout; name exactly one with -f")
    single = file_target(output.out, chosen[0].file_name) \
        if output.one_named and out is not None else None
    directory = None if single is not None or output.out == STDOUT else \
        directory_target(output.out, len(output.formats))
    request = audit_request(path, scan, config=config, settings=settings, codes=codes)
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
    if output.out == STDOUT:
        output.formats[0].write(document, sys.stdout)
        verbosity.note(coverage_line(result.coverage))
        return
    written = _write_reports(document, output.formats, directory, single)
    for file in written:
        click.echo(str(file))
    verbosity.note(_summary_line(result.findings))
    verbosity.note(coverage_line(result.coverage))


def _write_reports(document: dict, formats: tuple[ReportFormat, ...], directory: Path | None,
                   single: FileTarget | None) -> list[Path]:
    files = [single.path] if single is not None else \
        [directory / fmt.file_name for fmt in formats]
    try:
        for fmt, file in zip(formats, files):
            file.parent.mkdir(parents=True, exist_ok=True)
            with open(file, "w", encoding="utf-8") as stream:
                fmt.write(document, stream)
    except OSError as error:
        raise UserError(f"cannot write reports to {files[0].parent}: "
                        f"{error.strerror or error}") from None
    return files


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
