"""Options shared by the commands that scan a repository (`audit`, `check`, `graph`).

Each group of options reaches the command as one typed value (`scan: ScanOptions`,
`verbosity: Verbosity`, `settings: ConfigOptions`, `codes: CodeOptions`) rather than as a dozen
loose parameters (STYLE §1, "The CLI is thin"). Options whose default may come from the
configuration (`topo.audit.config`) default to None here; `audit_request` and the commands
resolve them: command line, then configuration, then topo's default.
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
from topo.audit.selection import CodeSelection, SelectorError, parse_selectors
from topo.reports.formats import AUDIT_FORMAT_NAMES
from topo.audit.progress import Progress, progress_for

__all__ = ["ScanOptions", "Verbosity", "ConfigOptions", "CodeOptions", "scan_options",
           "verbosity_options", "config_options", "code_options", "project_config",
           "code_selection", "EXECUTOR_OPTION"]


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


@dataclass(frozen=True, slots=True)
class ConfigOptions:
    """Which configuration file, and rule packs besides the ones it names."""

    config_file: Path | None = None
    packs: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class CodeOptions:
    """`--select` / `--ignore` as given: comma-separated codes or prefixes."""

    select: str | None = None
    ignore: str | None = None


_CONFIG_OPTIONS = (
    click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False),
                 default=None, metavar="FILE",
                 help="Read the configuration from FILE (topo.toml, or a pyproject.toml's "
                      "[tool.topo]) instead of the closest topo.toml / .topo.toml / "
                      "pyproject.toml at or above PATH."),
    click.option("--pack", "packs", multiple=True, metavar="FILE",
                 type=click.Path(path_type=Path, dir_okay=False),
                 help="Also load this rule pack (repeatable; adds to packs in the "
                      "configuration)."),
)
_CODE_OPTIONS = (
    click.option("--select", default=None, metavar="CODES",
                 help="Report only these codes or prefixes, comma-separated (replaces select "
                      "in the configuration; default: all)."),
    click.option("--ignore", default=None, metavar="CODES",
                 help="Leave out these codes or prefixes, comma-separated (adds to ignore in "
                      "the configuration)."),
)
_SCAN_OPTIONS = (
    click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                 help="Parser processes (default: all cores)."),
    click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), default=None,
                 help="Parse cache (default: $XDG_CACHE_HOME/topo or ~/.cache/topo)."),
    click.option("--no-cache", is_flag=True, help="Parse every file again; write no cache."),
    click.option("--include-tests/--no-include-tests", default=None,
                 help="Also audit tests and fixtures (default: no, or include-tests in the "
                      "configuration)."),
    click.option("--exclude", multiple=True, metavar="GLOB",
                 help="Exclude paths matching a gitignore-style glob (repeatable; adds to "
                      "exclude in the configuration)."),
    click.option("--retention-days", type=click.IntRange(min=1), default=None,
                 help="Event retention assumed for RETENTION-WINDOW (default: 90, or "
                      "retention-days in the configuration)."),
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


def config_options(function: Callable) -> Callable:
    """Add `--config`/`--pack`; the command receives them as `settings: ConfigOptions`."""
    return _grouped(_CONFIG_OPTIONS, ConfigOptions, "settings")(function)


def code_options(function: Callable) -> Callable:
    """Add `--select`/`--ignore`; the command receives them as `codes: CodeOptions`."""
    return _grouped(_CODE_OPTIONS, CodeOptions, "codes")(function)


def verbosity_options(function: Callable) -> Callable:
    """Add `--quiet`/`--verbose`; the command receives them as `verbosity: Verbosity`."""
    def check(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - click passes options
        if kwargs["verbosity"].quiet and kwargs["verbosity"].verbose:
            raise UserError("--quiet and --verbose exclude each other")
        return function(*args, **kwargs)
    return _grouped(_VERBOSITY_OPTIONS, Verbosity, "verbosity")(functools.wraps(function)(check))


def project_config(root: Path, settings: ConfigOptions = ConfigOptions()) -> ProjectConfig:
    """The configuration for the audited root (`--config`, else the closest file); a
    configuration error is a usage error (exit 2)."""
    try:
        return load_project_config(root, config_file=settings.config_file,
                                   known_formats=AUDIT_FORMAT_NAMES)
    except ConfigError as error:
        raise UserError(str(error)) from None


def code_selection(codes: CodeOptions, config: ProjectConfig) -> CodeSelection:
    """`--select` replaces the configured `select`, `--ignore` adds to `ignore`; an unknown
    code or prefix is a usage error (exit 2)."""
    if codes.select is not None and not _comma_list(codes.select):
        raise UserError("--select: no code given (to report nothing, use --exit-zero)")
    try:
        select = config.select if codes.select is None else \
            parse_selectors(_comma_list(codes.select), "--select")
        ignore = (*config.ignore, *parse_selectors(_comma_list(codes.ignore), "--ignore"))
    except SelectorError as error:
        raise UserError(str(error)) from None
    default = CodeSelection()
    return CodeSelection(select=default.select if select is None else select,
                         ignore=tuple(dict.fromkeys(ignore)),
                         per_file_ignores=config.per_file_ignores)


def _comma_list(value: str | None) -> list[str]:
    return [part for part in (value or "").split(",") if part.strip()]
