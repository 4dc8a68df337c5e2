"""Options shared by the commands that scan a repository (`audit`, `check`).

Each group of options reaches the command as one typed value (`scan: ScanOptions`,
`verbosity: Verbosity`) rather than as a dozen loose parameters (STYLE §1, "The CLI is thin").
Options whose default may come from `[tool.topo]` default to None here; `audit_request` and the
commands resolve them: command line, then configuration, then topo's default.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

from topo.cli.errors import UserError
from topo.audit.config import ConfigError, ProjectConfig, load_project_config
from topo.reports.formats import AUDIT_FORMAT_NAMES
from topo.audit.progress import Progress, progress_for

__all__ = ["ScanOptions", "Verbosity", "scan_options", "verbosity_options", "project_config",
           "EXECUTOR_OPTION"]


@dataclass(frozen=True, slots=True)
class ScanOptions:
    jobs: int | None = None
    cache_dir: Path | None = None
    no_cache: bool = False
    include_tests: bool | None = None
    exclude: tuple[str, ...] = ()
    retention_days: int | None = None
    ignore_suppressions: bool = False
    executor: str | None = None


@dataclass(frozen=True, slots=True)
class Verbosity:
    quiet: bool = False
    verbose: bool = False

    def progress(self) -> Progress:
        """Progress on standard error (never standard output)."""
        return progress_for(sys.stderr, quiet=self.quiet, verbose=self.verbose)

    def note(self, message: str) -> None:
        """An informational line on standard error; `--quiet` drops it."""
        if not self.quiet:
            click.echo(message, err=True)


_SCAN_OPTIONS = (
    click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                 help="Parser processes (default: all cores)."),
    click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), default=None,
                 help="Parse cache (default: $XDG_CACHE_HOME/topo or ~/.cache/topo)."),
    click.option("--no-cache", is_flag=True, help="Parse every file again; write no cache."),
    click.option("--include-tests/--no-include-tests", default=None,
                 help="Also audit tests and fixtures (default: no, or include-tests in "
                      "[tool.topo])."),
    click.option("--exclude", multiple=True, metavar="GLOB",
                 help="Exclude paths matching a gitignore-style glob (repeatable; adds to "
                      "exclude in [tool.topo])."),
    click.option("--retention-days", type=click.IntRange(min=1), default=None,
                 help="Event retention assumed for RETENTION-WINDOW (default: 90, or "
                      "retention-days in [tool.topo])."),
    click.option("--ignore-suppressions", is_flag=True,
                 help="Report findings that `topo: ignore[...]` comments suppress, as if the "
                      "comments were not there (to audit the suppressions)."),
)
# Where the per-file stage runs (analyzers/frontend/executor.py). Command line only for now:
# `[tool.topo] executor` is left to audit/config.py's owner.
EXECUTOR_OPTION = click.option(
    "--executor", default=None, metavar="local|dask://HOST:PORT",
    help="Where files are parsed: the local process pool (default), or the Dask scheduler at "
         "HOST:PORT (pip install 'topo-audit[dask]'); the results are the same.")
_SCAN_OPTIONS = (*_SCAN_OPTIONS, EXECUTOR_OPTION)
_VERBOSITY_OPTIONS = (
    click.option("-q", "--quiet", is_flag=True,
                 help="No progress and no informational messages on standard error."),
    click.option("-v", "--verbose", is_flag=True,
                 help="One progress line per stage on standard error, with timings."),
)


def _grouped(options: tuple, factory: type, name: str) -> Callable:
    fields = factory.__slots__

    def decorate(function: Callable) -> Callable:
        @functools.wraps(function)
        def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - click passes options
            kwargs[name] = factory(**{field: kwargs.pop(field) for field in fields})
            return function(*args, **kwargs)
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper
    return decorate


def scan_options(function: Callable) -> Callable:
    """Add the scan options; the command receives them as `scan: ScanOptions`."""
    return _grouped(_SCAN_OPTIONS, ScanOptions, "scan")(function)


def verbosity_options(function: Callable) -> Callable:
    """Add `--quiet`/`--verbose`; the command receives them as `verbosity: Verbosity`."""
    def check(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - click passes options
        if kwargs["verbosity"].quiet and kwargs["verbosity"].verbose:
            raise UserError("--quiet and --verbose exclude each other")
        return function(*args, **kwargs)
    return _grouped(_VERBOSITY_OPTIONS, Verbosity, "verbosity")(functools.wraps(function)(check))


def project_config(root: Path) -> ProjectConfig:
    """`[tool.topo]` of the audited root; a configuration error is a usage error (exit 2)."""
    try:
        return load_project_config(root, known_formats=AUDIT_FORMAT_NAMES)
    except ConfigError as error:
        raise UserError(str(error)) from None
