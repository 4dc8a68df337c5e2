"""Running `topo check` / `topo audit` in-process, and small repositories to run them on."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from topo.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
APPS = REPO / "corpus" / "apps"
CHECKS = REPO / "corpus" / "checks"
SCHEMA_FILE = REPO / "tests" / "data" / "sarif-2.1.0-rtm.5.json"

# A model-invoked tool that deletes a path: one UNGOVERNED-PATH (critical) on the rmtree line.
TOOL_APP = '''import shutil

from agents import Agent, function_tool


@function_tool
def purge_workspace(path: str) -> str:
    """The model decides when to call this, and with which path."""
{body}
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace])
'''


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> dict:
        return json.loads(self.stdout)


def topo(*args: object) -> Run:
    """`topo ARGS` in-process; any exception other than SystemExit fails the test."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"topo raised {result.exception!r}") from result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def check(path: Path, *args: object) -> Run:
    return topo("check", path, "--no-cache", "-j", "1", *args)


def copy_tree(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def tool_app(root: Path, body: str = "    shutil.rmtree(path)") -> Path:
    """A repository with the deleting tool; `body` replaces the tool's statements."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "app.py").write_text(TOOL_APP.format(body=body), encoding="utf-8")
    return root


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the only line of `path` containing `text`."""
    [number] = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return number
