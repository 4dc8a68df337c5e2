"""Project configuration: `[tool.topo]` in the audited root's `pyproject.toml`.

Precedence, highest first: command-line options, then `[tool.topo]`, then topo's defaults. An
option left unset on the command line falls back to the configuration; list options add to it
(`--exclude` on the command line extends the configured `exclude`). Unknown keys and wrong types
are errors, not warnings: a misspelt `fail_on` silently ignored would weaken a CI gate.

```toml
[tool.topo]
exclude = ["scripts/**", "legacy/"]   # gitignore-style globs, relative to the audited root
fail-on = "medium"                    # topo check: critical | high | medium | low
retention-days = 30                   # event retention assumed by RETENTION-WINDOW
formats = ["yaml", "sarif"]           # topo audit: default report formats
include-tests = false                 # also audit tests and fixtures
```
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from topo.analyzers.reading import InputRefused, read_text
from topo.audit.model import Severity

__all__ = ["ConfigError", "ProjectConfig", "load_project_config", "CONFIG_FILE", "KEYS"]

CONFIG_FILE = "pyproject.toml"
KEYS = ("exclude", "fail-on", "formats", "include-tests", "retention-days")


class ConfigError(Exception):
    """`[tool.topo]` cannot be read or holds an unknown key or a wrong value."""


@dataclass(frozen=True, slots=True)
class ProjectConfig:
    """What `[tool.topo]` sets; None means "not set here" (the default or the CLI decides)."""

    exclude: tuple[str, ...] = ()
    fail_on: Severity | None = None
    formats: tuple[str, ...] | None = None
    include_tests: bool | None = None
    retention_days: int | None = None
    source: str | None = None   # the file read, for messages; None when there was none


def load_project_config(root: Path, *, known_formats: Collection[str] | None = None
                        ) -> ProjectConfig:
    """`[tool.topo]` of `root/pyproject.toml`; an empty config when either is absent.

    `known_formats` are the report format names `formats` may hold: the list lives in
    `reports/formats.py`, a floor above this one, so the caller (the CLI) passes it in; None
    checks only the shape of the list.
    """
    path = root / CONFIG_FILE
    if not os.path.exists(path):      # a FIFO exists (and is refused); a dangling link not
        return ProjectConfig()
    try:
        # tomllib recurses once per nesting level: a deep document is a configuration error
        data = tomllib.loads(read_text(path, root=root))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except InputRefused as refused:
        raise ConfigError(f"{path}: cannot be read: {refused.reason}") from None
    except RecursionError:
        raise ConfigError(f"{path}: cannot be read: TOML nested too deeply") from None
    table = data.get("tool", {}).get("topo") if isinstance(data.get("tool"), dict) else None
    if table is None:
        return ProjectConfig()
    where = f"{path}: [tool.topo]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    _reject_unknown(table, where)
    return ProjectConfig(
        exclude=_strings(table, "exclude", where) or (),
        fail_on=_severity(table, where),
        formats=_formats(table, where, known_formats),
        include_tests=_boolean(table, "include-tests", where),
        retention_days=_positive(table, "retention-days", where),
        source=str(path))


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
