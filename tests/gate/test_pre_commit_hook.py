"""The pre-commit hook, run by pre-commit itself (`pre-commit try-repo`) on a temporary git
repository: it runs on Python, JSX, EMU and config changes, and only then.

`try-repo` installs topo into a fresh environment on every run (about 20 s), so it is run
twice (a JSX change runs the hook, a README change does not); the other kinds of change go
through `pre-commit run` with a configuration naming the same snapshot, whose environment is
installed once. Skipped, saying so, when pre-commit is not installed (the `test` extra has it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gate.gate_helpers import REPO, TOOL_APP

PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
pytestmark = [
    pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is not installed in this "
                       "environment, so the hook is checked structurally only "
                       "(tests/gate/test_integration_files.py)"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]
_IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
             "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={**os.environ, **_IDENTITY})


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout's files (committed or not) as a clean repository, so that every
    try-repo run names the same repository and revision and pre-commit installs once."""
    target = tmp_path_factory.mktemp("hook") / "topo"
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, check=True).stdout.split(b"\0")
    for raw in listed:
        relative = os.fsdecode(raw)
        if relative and (REPO / relative).is_file():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / relative, target / relative)
    _git(target, "init", "-q")
    _git(target, "add", "-A")
    _git(target, "commit", "-q", "-m", "snapshot")
    return target


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    (root / "README.md").write_text("# project\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "initial")
    return root


def try_repo(project: Path, hook_repo: Path, home: Path, *files: str
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PRE_COMMIT), "try-repo", str(hook_repo), "topo", "--files", *files],
        cwd=project, capture_output=True, text=True, timeout=900, check=False,
        env={**os.environ, **_IDENTITY, "PRE_COMMIT_HOME": str(home),
             "PATH": f"{PRE_COMMIT.parent}{os.pathsep}{os.environ['PATH']}"})


def _touch(project: Path, changed: str) -> None:
    path = project / changed
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text("export const App = () => null;\n" if changed.endswith("x") else "")


def _ran_the_gate(done: subprocess.CompletedProcess[str]) -> None:
    log = done.stdout + done.stderr
    # It ran the whole-repository gate: app.py's finding fails it, whatever file changed.
    assert done.returncode == 1, log
    assert "UNGOVERNED-PATH" in log and "Failed" in log


def test_try_repo_runs_the_hook_on_a_jsx_change(project: Path, hook_repo: Path,
                                                pre_commit_home: Path) -> None:
    _touch(project, "web/App.jsx")
    _ran_the_gate(try_repo(project, hook_repo, pre_commit_home, "web/App.jsx"))


def test_try_repo_skips_the_hook_when_nothing_topo_reads_changed(
        project: Path, hook_repo: Path, pre_commit_home: Path) -> None:
    done = try_repo(project, hook_repo, pre_commit_home, "README.md")
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert "(nofilestocheck)Skipped" in log.replace(" ", "")


@pytest.mark.parametrize("changed", [
    "app.py", "emus/refunds.jsonl", "pyproject.toml", "topo.toml", ".topo.toml",
    "analysis.ipynb",
])
def test_the_hook_runs_on_what_topo_reads(project: Path, hook_repo: Path,
                                          pre_commit_home: Path, changed: str) -> None:
    revision = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, check=True,
                              capture_output=True, text=True).stdout.strip()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {revision}\n    hooks:\n      - id: topo\n")
    _touch(project, changed)
    if changed.endswith(".ipynb"):
        (project / changed).write_text('{"nbformat": 4, "cells": []}')
    done = subprocess.run(
        [str(PRE_COMMIT), "run", "topo", "--files", changed], cwd=project,
        capture_output=True, text=True, timeout=900, check=False,
        env={**os.environ, **_IDENTITY, "PRE_COMMIT_HOME": str(pre_commit_home),
             "PATH": f"{PRE_COMMIT.parent}{os.pathsep}{os.environ['PATH']}"})
    _ran_the_gate(done)
