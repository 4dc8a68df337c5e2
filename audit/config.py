"""Project configuration: `topo.toml`, `.topo.toml` or `[tool.topo]` in `pyproject.toml`.

Where it is read from: `--config FILE` when given (a `pyproject.toml` is read for its
`[tool.topo]` table, any other file for its top-level keys); otherwise the closest
configuration file found going up from the audited directory, stopping after the directory
that holds `.git` (the top of the work tree) or at the filesystem root. In each directory
`topo.toml` comes first, then `.topo.toml`, then `pyproject.toml` — a `pyproject.toml` counts
only when it has a `[tool.topo]` table. The closest file wins; files are not merged (as Ruff
does): one file says everything about a run.

Precedence, highest first: command-line options, then that one file, then topo's defaults. An
option left unset on the command line falls back to the configuration; list options add to it
(`--exclude`, `--ignore`, `--pack` extend `exclude`, `ignore`, `packs`); `--select` replaces
`select`. Unknown keys and wrong types are errors, not warnings: a misspelt `fail_on` silently
ignored would weaken a CI gate.

```toml
# topo.toml (the same keys go under [tool.topo] in pyproject.toml)
exclude = ["scripts/**", "legacy/"]   # gitignore-style globs, relative to the audited root
fail-on = "medium"                    # topo check: critical | high | medium | low
retention-days = 30                   # event retention assumed by RETENTION-WINDOW
formats = ["yaml", "sarif"]           # topo audit: default report formats
include-tests = false                 # also audit tests and fixtures
packs = ["topo-packs/*.toml"]         # more rule packs; paths and globs relative to this file
select = ["ALL"]                      # codes or prefixes reported (default: all)
ignore = ["RETENTION-WINDOW"]         # codes or prefixes left out (after select)
executor = "dask://scheduler:8786"    # where files are parsed (default: "local", a process pool)

[per-file-ignores]                    # gitignore-style glob (relative to the audited root)
"scripts/**" = ["UNGOVERNED-PATH"]    #   -> codes or prefixes left out for those files
```

`select`/`ignore` semantics are in `topo.audit.selection`.
"""

from __future__ import annotations

import difflib
import glob
import os
import tomllib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from topo.analyzers.frontend.executor import ExecutorError, parse_executor
from topo.analyzers.reading import InputRefused, read_text
from topo.audit.model import Severity
from topo.audit.selection import SelectorError, parse_selectors, per_file_table

__all__ = ["ConfigError", "ProjectConfig", "load_project_config", "find_config_file",
           "CONFIG_FILES", "KEYS"]

# In the order they are looked for in one directory.
CONFIG_FILES = ("topo.toml", ".topo.toml", "pyproject.toml")
KEYS = ("exclude", "executor", "fail-on", "formats", "ignore", "include-tests", "packs",
        "per-file-ignores", "retention-days", "select")
_PYPROJECT = "pyproject.toml"
_GLOB_CHARACTERS = frozenset("*?[")


class ConfigError(Exception):
    """The configuration cannot be read or holds an unknown key or a wrong value."""


@dataclass(frozen=True, slots=True)
class ProjectConfig:
    """What the configuration sets; None means "not set here" (the default or the CLI decides)."""

    exclude: tuple[str, ...] = ()
    fail_on: Severity | None = None
    formats: tuple[str, ...] | None = None
    include_tests: bool | None = None
    retention_days: int | None = None
    packs: tuple[Path, ...] = ()           # pack files, resolved against the config file
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (glob, selectors)
    executor: str | None = None            # `local` or `dask://HOST:PORT`
    source: str | None = None   # the file read, for messages; None when there was none


def find_config_file(root: Path) -> Path | None:
    """The closest configuration file at or above `root` (see the module docstring)."""
    found = _closest(root)
    return None if found is None else found[0]


def _closest(root: Path) -> tuple[Path, object] | None:
    directory = Path(os.path.abspath(root))
    while True:
        for name in CONFIG_FILES:
            candidate = directory / name
            if os.path.exists(candidate):    # a FIFO exists (and is refused); a dangling link not
                table = _table(candidate, directory)
                if table is not None:
                    return candidate, table
        if os.path.lexists(directory / ".git") or directory.parent == directory:
            return None
        directory = directory.parent


def load_project_config(root: Path, *, config_file: Path | None = None,
                        known_formats: Collection[str] | None = None) -> ProjectConfig:
    """The configuration for auditing `root`: `config_file`, else the closest file at or above
    `root`; an empty config when there is none.

    `known_formats` are the report format names `formats` may hold: the list lives in
    `reports/formats.py`, a floor above this one, so the caller (the CLI) passes it in; None
    checks only the shape of the list.
    """
    if config_file is None:
        if not os.path.isdir(root):    # the pipeline says what is wrong with the path
            return ProjectConfig()
        found = _closest(root)
        if found is None:
            return ProjectConfig()
        path, table = found
    else:
        path = config_file
        if not os.path.exists(path):
            raise ConfigError(f"{path}: no such configuration file")
        table = _table(path, None)
        if table is None:
            raise ConfigError(f"{path}: no [tool.topo] table")
    where = f"{path}: [tool.topo]" if path.name == _PYPROJECT else str(path)
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    _reject_unknown(table, where)
    try:
        return ProjectConfig(
            exclude=_strings(table, "exclude", where) or (),
            fail_on=_severity(table, where),
            formats=_formats(table, where, known_formats),
            include_tests=_boolean(table, "include-tests", where),
            retention_days=_positive(table, "retention-days", where),
            packs=_packs(table, where, path.parent),
            select=_selectors(table, "select", where),
            ignore=_selectors(table, "ignore", where) or (),
            per_file_ignores=_per_file(table, where),
            executor=_executor(table, where),
            source=str(path))
    except SelectorError as error:
        raise ConfigError(str(error)) from None


def _selectors(table: dict, key: str, where: str) -> tuple[str, ...] | None:
    values = _strings(table, key, where)
    if values is None:
        return None
    if key == "select" and not values:     # an empty select would gate on nothing
        raise ConfigError(f"{where} select: the list is empty (omit select to report every "
                          "code)")
    return parse_selectors(values, f"{where} {key}")


def _table(path: Path, root: Path | None) -> object:
    """The topo table of `path`: `[tool.topo]` of a pyproject.toml (None when it has none),
    the whole document of any other file."""
    try:
        # tomllib recurses once per nesting level: a deep document is a configuration error
        data = tomllib.loads(read_text(path, root=root))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except InputRefused as refused:
        raise ConfigError(f"{path}: cannot be read: {refused.reason}") from None
    except RecursionError:
        raise ConfigError(f"{path}: cannot be read: TOML nested too deeply") from None
    if path.name != _PYPROJECT:
        return data
    tool = data.get("tool")
    return tool.get("topo") if isinstance(tool, dict) else None


def _packs(table: dict, where: str, base: Path) -> tuple[Path, ...]:
    """`packs`: each entry a file or a glob, relative to the directory of the config file; an
    entry that names no file is an error (a pack silently not loaded would hide findings)."""
    found: list[Path] = []
    for entry in _strings(table, "packs", where) or ():
        pattern = os.path.join(base, entry)
        if _GLOB_CHARACTERS & set(entry):
            matches = sorted(Path(p) for p in glob.glob(pattern, recursive=True)
                             if os.path.isfile(p))
            if not matches:
                raise ConfigError(f"{where} packs: {entry!r} matches no file")
            found.extend(matches)
        elif os.path.isfile(pattern):
            found.append(Path(pattern))
        elif os.path.exists(pattern):
            raise ConfigError(f"{where} packs: {entry!r}: not a regular file")
        else:
            raise ConfigError(f"{where} packs: {entry!r}: no such file "
                              f"(paths are relative to {base})")
    return tuple(dict.fromkeys(found))


def _per_file(table: dict, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if "per-file-ignores" not in table:
        return ()
    value = table["per-file-ignores"]
    if not isinstance(value, dict):
        raise ConfigError(f"{where} per-file-ignores: expected a table of glob = [codes], "
                          f"got {value!r}")
    return per_file_table(value, f"{where} per-file-ignores")


def _reject_unknown(table: dict, where: str) -> None:
    for key in sorted(table):
        if key not in KEYS:
            close = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ConfigError(f"{where}: unknown key '{key}'{hint}; "
                              f"known keys: {', '.join(KEYS)}")


def _strings(table: dict, key: str, where: str) -> tuple[str, ...] | None:
    if key not in table:
        return None
    value = table[key]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{where} {key}: expected a list of non-empty strings, "
                          f"got {value!r}")
    return tuple(value)


def _executor(table: dict, where: str) -> str | None:
    if "executor" not in table:
        return None
    value = table["executor"]
    try:
        if not isinstance(value, str):
            raise ExecutorError(f"expected a string, got {value!r}")
        parse_executor(value)
    except ExecutorError as error:
        raise ConfigError(f"{where} executor: {error}") from None
    return value


def _severity(table: dict, where: str) -> Severity | None:
    if "fail-on" not in table:
        return None
    value = table["fail-on"]
    try:
        if not isinstance(value, str):
            raise ValueError(f"expected a string, got {value!r}")
        return Severity.parse(value)
    except ValueError as error:
        raise ConfigError(f"{where} fail-on: {error}") from None


def _formats(table: dict, where: str, known: Collection[str] | None
             ) -> tuple[str, ...] | None:
    formats = _strings(table, "formats", where)
    if formats is None:
        return None
    unknown = [] if known is None else \
        [name for name in formats if name.strip().lower() not in known]
    if unknown or not formats:
        raise ConfigError(f"{where} formats: unknown format {unknown[0]!r} "
                          f"(formats: {', '.join(known or ())})" if unknown else
                          f"{where} formats: the list is empty")
    return tuple(name.strip().lower() for name in formats)


def _boolean(table: dict, key: str, where: str) -> bool | None:
    if key not in table:
        return None
    if not isinstance(table[key], bool):
        raise ConfigError(f"{where} {key}: expected true or false, got {table[key]!r}")
    return table[key]


def _positive(table: dict, key: str, where: str) -> int | None:
    if key not in table:
        return None
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{where} {key}: expected a whole number of at least 1, "
                          f"got {value!r}")
    return value
