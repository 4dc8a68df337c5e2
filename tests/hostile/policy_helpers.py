"""Shared helpers of the hostile policy tests: run the CLI in-process, write EMU files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from topo.cli.main import cli

NOW = "2026-11-30T12:00:00Z"


def run(*args: str):
    """The CLI's result; a raised exception (not SystemExit) fails the test."""
    result = CliRunner().invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"command raised {result.exception!r}") from result.exception
    return result


def assert_clean_failure(result, code: int) -> None:
    """Exit `code`, and nothing that looks like a crash on either stream."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream and "internal error" not in stream, stream


def emu(key: str, trigger: str = "state.user.tier == 'gold'", **extra: Any) -> dict[str, Any]:
    return {"emu_key": key, "decision_point": "refund", "trigger": trigger,
            "action": {"type": "route", "route": "review"}, "state": "active", **extra}


def write_emus(folder: Path, *lines: str | dict[str, Any]) -> Path:
    """An emus/ folder holding one x.jsonl with `lines` (dicts are JSON-encoded)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join((json.dumps(line) if isinstance(line, dict) else line) + "\n"
                   for line in lines)
    (folder / "x.jsonl").write_text(text, encoding="utf-8")
    return folder
