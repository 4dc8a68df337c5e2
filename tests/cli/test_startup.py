"""`topo --version` and `topo --help` import none of the heavy libraries (the commands are
loaded lazily), and the lazy table's help lines are the commands' own."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
import pytest

from topo.cli.main import COMMANDS, cli

HEAVY = ("hypothesis", "networkx", "libcst", "tree_sitter", "jinja2")

_PROBE = """
import sys
from topo.cli.main import main
try:
    main({argv!r})
except SystemExit:
    pass
heavy = sorted(name for name in sys.modules if name.split(".")[0] in {heavy!r})
print("HEAVY:" + ",".join(heavy), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["-V"]])
def test_version_and_help_import_no_heavy_library(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE.format(argv=argv, heavy=set(HEAVY))],
                          capture_output=True, text=True, check=True)
    [line] = [line for line in done.stderr.splitlines() if line.startswith("HEAVY:")]
    assert line == "HEAVY:", line
    assert ("version 0.1" in done.stdout) if argv != ["--help"] else ("audit" in done.stdout)


def test_python_dash_m_importtime_shows_no_heavy_module() -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "topo.cli", "--version"],
                          capture_output=True, text=True, check=True)
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0]
                for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "topo" in imported and "click" in imported     # the probe does see imports
    assert imported.isdisjoint(HEAVY), sorted(imported & set(HEAVY))


def test_a_command_still_runs_through_the_lazy_group() -> None:
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, ["trigger", "check", "state.a.b == 1"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_matches_each_command(name: str) -> None:
    entry = COMMANDS[name]
    command = getattr(importlib.import_module(entry.module), entry.attribute)
    assert isinstance(command, click.Command)
    assert command.name == name
    assert command.get_short_help_str(limit=1000) == entry.short_help


def test_an_unknown_command_is_a_usage_error() -> None:
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command" in result.output
