"""Reading command-line inputs: expressions, JSON files, timestamps. Errors become UserError."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from topo.cli.errors import UserError

__all__ = ["read_expression", "read_json_file", "parse_instant"]


def read_expression(value: str) -> str:
    """A trigger given inline, as `-` (standard input) or as `@path` (a file)."""
    if value == "-":
        return sys.stdin.read()
    if value.startswith("@") and len(value) > 1:
        return _read_text(Path(value[1:]), what="trigger file")
    return value


def read_json_file(path: Path, *, what: str) -> object:
    text = _read_text(path, what=what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"{what} {path}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}")


def parse_instant(value: str | None) -> datetime:
    """An ISO-8601 instant; a naive one is taken as UTC. None means now."""
    if value is None:
        return datetime.now(UTC)
    try:
        instant = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UserError(f"--now {value!r} is not an ISO-8601 instant "
                        "(for example 2026-11-30T12:00:00Z)") from None
    return instant if instant.tzinfo else instant.replace(tzinfo=UTC)


def _read_text(path: Path, *, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{what} {path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{what} {path}: is a directory, not a file") from None
    except PermissionError:
        raise UserError(f"{what} {path}: permission denied") from None
    except UnicodeDecodeError as error:
        raise UserError(f"{what} {path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise UserError(f"{what} {path}: {error.strerror or error}") from None
