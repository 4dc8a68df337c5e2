"""Hostile command-line input files (issue #16, case 13): `@FILE` triggers, `--context FILE`
and `--baseline FILE` that are FIFOs, devices, huge or nested too deeply. Each is one
`topo: error:` line and exit 2, in bounded time (a FIFO opened for reading would block)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.hostile_helpers import healthy_repo, topo

TRIGGER = "state.customer.tier == 'enterprise'"
TIMEOUT = 60


@pytest.fixture()
def fifo(tmp_path: Path) -> Path:
    import os
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def _one_error(run, message: str) -> None:
    assert run.exit_code == 2, run.stderr
    assert run.stderr.splitlines() == [f"topo: error: {message}"]


def test_trigger_file_that_is_a_fifo(fifo: Path) -> None:
    _one_error(topo("trigger", "check", f"@{fifo}", timeout=TIMEOUT),
               f"trigger file {fifo}: not a regular file (a FIFO)")


def test_trigger_file_that_is_dev_zero() -> None:
    _one_error(topo("trigger", "fmt", "@/dev/zero", timeout=TIMEOUT),
               "trigger file /dev/zero: not a regular file (a character device)")


def test_trigger_file_over_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.trigger"
    big.write_text(TRIGGER + " " * (1024 * 1024))
    _one_error(topo("trigger", "deps", f"@{big}", timeout=TIMEOUT),
               f"trigger file {big}: too large ({1024 * 1024 + len(TRIGGER)} bytes; the limit "
               f"is {1024 * 1024})")


def test_trigger_on_standard_input_over_the_limit() -> None:
    command = [sys.executable, "-c", "from topo.cli.main import main; main()",
               "trigger", "check", "-"]
    done = subprocess.run(command, input=b"a" * (1024 * 1024 + 1), capture_output=True,
                          timeout=TIMEOUT, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [
        "topo: error: trigger on standard input: too large (the limit is 1048576 characters)"]


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_context_that_is_not_a_regular_file(fifo: Path, kind: str) -> None:
    path = fifo if kind == "fifo" else Path(kind)
    what = "a FIFO" if kind == "fifo" else "a character device"
    _one_error(topo("trigger", "eval", TRIGGER, "--context", path, timeout=TIMEOUT),
               f"context {path}: not a regular file ({what})")


def test_context_nested_too_deeply(tmp_path: Path) -> None:
    context = tmp_path / "ctx.json"
    context.write_text('{"state": ' + "[" * 100_000 + "]" * 100_000 + "}")
    _one_error(topo("trigger", "eval", TRIGGER, "--context", context, timeout=TIMEOUT),
               f"context {context}: nested too deeply (100001 levels; the limit is 100)")


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_baseline_that_is_not_a_regular_file(tmp_path: Path, fifo: Path, kind: str) -> None:
    root = healthy_repo(tmp_path / "repo")
    path = fifo if kind == "fifo" else Path(kind)
    what = "a FIFO" if kind == "fifo" else "a character device"
    _one_error(topo("check", root, "--no-cache", "--baseline", path, timeout=TIMEOUT),
               f"baseline {path}: not a regular file ({what})")
