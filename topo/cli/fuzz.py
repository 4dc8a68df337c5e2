"""`topo fuzz EMUS`: reachability witnesses, boundary tables, before/after diffs, arbitration."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import click

from topo.audit import fuzz as fuzzer
from topo.audit import policy
from topo.audit.progress import progress_for
from topo.cli.errors import ExitCode, UserError
from topo.cli.inputs import parse_instant

__all__ = ["fuzz", "DEFAULT_TIME_BUDGET"]

DEFAULT_TIME_BUDGET = 600.0
"""Seconds of searching `topo fuzz` spends by default: a CI step's usual allowance. Real
policy sets (tens to hundreds of EMUs) finish in seconds; 100,000 EMUs would take hours."""


@dataclass(frozen=True, slots=True)
class FuzzRequest:
    emus: Path
    before: Path | None
    fmt: str
    output: str
    export_dir: Path | None
    config: fuzzer.FuzzConfig


@click.command("fuzz")
@click.argument("emus_path", metavar="EMUS", type=click.Path(path_type=Path))
@click.option("--before", type=click.Path(path_type=Path), metavar="OLD",
              help="The previous version (an emus/ directory or a .jsonl file) to diff against.")
@click.option("-f", "--format", "fmt", type=click.Choice(["md", "json"]), default="md",
              show_default=True)
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE|-",
              help="Where to write the report; '-' is standard output.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of every search; the same seed gives the same report.")
@click.option("--max-examples", type=click.IntRange(min=1),
              default=fuzzer.DEFAULT_MAX_EXAMPLES, show_default=True,
              help="Contexts generated per search (witness, absence, diff, arbitration).")
@click.option("--top-k", type=click.IntRange(min=1), default=None,
              help="Simulate decide() with options.top_k (default: no limit).")
@click.option("--export-tests", "export_dir", metavar="DIR",
              type=click.Path(path_type=Path, file_okay=False),
              help="Also write a pytest file of the fuzzed cases into DIR.")
@click.option("--max-emus", type=click.IntRange(min=1), default=None,
              help="Fuzz at most N EMUs (in file order); the rest are listed as not fuzzed.")
@click.option("--time-budget", type=click.FloatRange(min=0), default=DEFAULT_TIME_BUDGET,
              show_default=True, metavar="SECONDS",
              help="Start no EMU's search after this many seconds; the rest are listed as not "
                   "fuzzed.")
@click.option("--now", help="Evaluation instant, ISO-8601 (default: SOURCE_DATE_EPOCH if set, "
                            "else 2026-11-30T12:00:00Z).")
def fuzz(emus_path: Path, before: Path | None, fmt: str, output: str, seed: int,
         max_examples: int, top_k: int | None, export_dir: Path | None, now: str | None,
         max_emus: int | None, time_budget: float) -> None:
    """Fuzz the triggers of EMUS (an emus/ directory or one .jsonl file) with Hypothesis.

    For each EMU: a minimal context that matches (witness) or none, with a proof when the
    trigger is contradictory; contexts that match while an input is absent; and a boundary
    table (each input at the values next to the literals it is compared with, the others held
    at the witness). For each decision point: which EMU arbitration selects, and where a
    matching EMU loses. With --before OLD: the inputs whose outcome changed, as intervals or
    value sets per input, with example contexts, and the cases that stayed the same.

    Exit 0, 1 when an EMU in an evaluated lifecycle state (active, canary, shadow, or no
    state) has no witness, 2 when input cannot be read (bad path, bad JSON, duplicate
    emu_key, a trigger that does not parse) or when --max-emus or --time-budget left EMUs
    unfuzzed (the report is written, marked partial, and lists them).
    """
    config = fuzzer.FuzzConfig(fuzzer.Budget(max_examples, seed), _instant(now), top_k,
                               max_emus=max_emus, time_budget=time_budget)
    request = FuzzRequest(emus_path, before, fmt, output, export_dir, config)
    after = _policies(request.emus, "EMUS")
    previous = _policies(request.before, "--before") if request.before is not None else None
    shown = progress_for(sys.stderr)
    try:
        report = fuzzer.fuzz_policies(
            after, config=request.config, before=previous, source=request.emus.as_posix(),
            before_source=request.before.as_posix() if request.before else None,
            progress=lambda done, total: shown.count(done, total, "EMUs searched"))
    finally:
        shown.finish()
    text = fuzzer.render_json(report) if request.fmt == "json" else fuzzer.render_markdown(report)
    _write(text, request.output)
    if request.export_dir is not None:
        path = _export(report, request.export_dir)
        click.echo(f"topo: wrote {path}", err=True)
    if report.dead:
        keys = ", ".join(result.emu.label for result in report.dead)
        click.echo(f"topo: {len(report.dead)} EMU(s) in an evaluated lifecycle state have no "
                   f"witness: {keys}", err=True)
        raise SystemExit(ExitCode.FINDINGS)
    if report.not_fuzzed:
        click.echo(f"topo: partial: {len(report.not_fuzzed)} of "
                   f"{len(report.not_fuzzed) + len(report.emus)} EMU(s) not fuzzed "
                   f"({report.not_fuzzed[0][1]}); they are listed in the report", err=True)
        raise SystemExit(ExitCode.ERROR)


def _policies(path: Path, what: str) -> tuple[fuzzer.PolicyUnderTest, ...]:
    """Load and parse; print every problem with file:line and exit 2 if there is any."""
    if path.is_dir():
        loaded = policy.load_emus(path)
    elif path.is_file() and path.suffix != ".jsonl":
        raise UserError(f"{what} {path}: not an EMU file (an emus/ directory or a .jsonl file)")
    elif path.is_file():
        loaded = policy.load_emu_file(path)
    else:
        raise UserError(f"{what} {path}: no such directory or file")
    parsed, problems = fuzzer.parse_policies(loaded)
    errors = (*loaded.errors, *problems)
    for error in errors:
        click.echo(f"{error}", err=True)
    if errors:
        raise UserError(f"{what} {path}: {len(errors)} problem(s) above; nothing was fuzzed")
    if not parsed:
        raise UserError(f"{what} {path}: no EMUs to fuzz")
    return parsed


def _instant(value: str | None) -> datetime:
    if value is not None:
        return parse_instant(value)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return fuzzer.DEFAULT_NOW
    try:
        return datetime.fromtimestamp(int(epoch), UTC)
    except (ValueError, OverflowError, OSError):
        raise UserError(f"SOURCE_DATE_EPOCH={epoch!r} is not a number of seconds") from None


def _write(text: str, output: str) -> None:
    if output == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"-o {output}: {error.strerror or error}") from None


def _export(report: fuzzer.FuzzReport, directory: Path) -> Path:
    try:
        return fuzzer.export_tests(report, directory)
    except OSError as error:
        raise UserError(f"--export-tests {directory}: {error.strerror or error}") from None
