"""Reading command-line inputs: expressions, JSON files, timestamps. Errors become UserError."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from topo.analyzers.reading import InputRefused, load_json, read_text
from topo.cli.errors import UserError

__all__ = ["MAX_CONTEXT_BYTES", "MAX_EXPRESSION_BYTES", "read_expression", "read_json_file",
           "parse_instant"]

# A trigger is one expression; a context is a state/tags/events document.
MAX_EXPRESSION_BYTES = 1024 * 1024
MAX_CONTEXT_BYTES = 16 * 1024 * 1024


def read_expression(value: str) -> str:
    """A trigger given inline, as `-` (standard input) or as `@path` (a file)."""
    if value == "-":
        text = sys.stdin.read(MAX_EXPRESSION_BYTES + 1)
        if len(text) > MAX_EXPRESSION_BYTES:
            raise UserError(f"trigger on standard input: too large (the limit is "
                            f"{MAX_EXPRESSION_BYTES} characters)")
        return text
    if value.startswith("@") and len(value) > 1:
        return _read_text(Path(value[1:]), what="trigger file", limit=MAX_EXPRESSION_BYTES)
    return value


def read_json_file(path: Path, *, what: str, limit: int = MAX_CONTEXT_BYTES) -> object:
    """A JSON input file: regular, at most `limit` bytes, UTF-8, nested at most 100 deep."""
    text = _read_text(path, what=what, limit=limit)
    try:
        return load_json(text)
    except InputRefused as refused:
        raise UserError(f"{what} {path}: {refused.reason}") from None
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


def _read_text(path: Path, *, what: str, limit: int) -> str:
    try:
        return read_text(path, limit=limit)
    except InputRefused as refused:
        raise UserError(f"{what} {path}: {refused.reason}") from None
