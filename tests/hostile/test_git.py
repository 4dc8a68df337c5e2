"""An audited tree's own `.git/config` runs nothing (issue #16, case 9): `core.fsmonitor`
through `git ls-files`, a `filter.<driver>.clean`/`.process` through `git diff`."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.hostile.policy_helpers import run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)


def _hostile_repo(tmp_path: Path) -> tuple[Path, Path]:
    """A committed repo whose config names programs that leave a marker file, with a
    modified tracked file (so that a work-tree diff must look at its content)."""
    root, marker = tmp_path / "repo", tmp_path / "marker"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "app.py"],
                 ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]):
        assert _git(root, *args).returncode == 0
    hook = root / "fsmonitor.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}-fsmonitor\n", encoding="utf-8")
    hook.chmod(0o755)
    (root / ".gitattributes").write_text("* filter=x\n", encoding="utf-8")
    for key, value in (("core.fsmonitor", str(hook)),
                       ("filter.x.clean", f"touch {marker}-clean; cat"),
                       ("filter.x.process", f"touch {marker}-process")):
        assert _git(root, "config", key, value).returncode == 0
    (root / "app.py").write_text("x = 2\n", encoding="utf-8")
    return root, marker


def _markers(marker: Path) -> list[str]:
    return sorted(p.name for p in marker.parent.glob(marker.name + "-*"))


def test_plain_git_would_run_them(tmp_path: Path) -> None:
    """The control: without topo's overrides these commands do run the repo's programs."""
    root, marker = _hostile_repo(tmp_path)
    _git(root, "ls-files", "-co", "--exclude-standard")
    _git(root, "diff", "--name-only", "HEAD")
    assert _markers(marker) != []


@pytest.mark.parametrize("args", [
    ["audit", "{root}", "-f", "json", "-o", "{out}/"],
    ["check", "{root}", "--changed-since", "HEAD"],
    ["graph", "{root}", "-f", "json"],
], ids=["audit", "check-changed-since", "graph"])
def test_topo_runs_no_program_the_repo_config_names(args: list[str], tmp_path: Path) -> None:
    root, marker = _hostile_repo(tmp_path)
    result = run(*(a.format(root=root, out=tmp_path / "out") for a in args))
    assert result.exit_code in (0, 1), result.output
    assert _markers(marker) == []


def test_changed_since_still_sees_the_modified_file(tmp_path: Path) -> None:
    from topo.audit.vcs import changed_files

    root, marker = _hostile_repo(tmp_path)
    assert changed_files(root, "HEAD") == {"app.py", ".gitattributes", "fsmonitor.sh"}
    assert _markers(marker) == []


def test_the_base_revision_is_read_without_hooks_filters_or_fsmonitor(tmp_path: Path) -> None:
    """`check --changed-since` writes the base revision's files from git's object store: the
    repo's hooks, smudge/process filters and fsmonitor run nothing, and the stored bytes (not
    what a smudge filter would make of them) are what the base audit reads."""
    from tests.gate.gate_helpers import TOOL_APP

    root, marker = tmp_path / "repo", tmp_path / "marker"
    root.mkdir()
    (root / "tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    (root / ".gitattributes").write_text("* filter=x\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]):
        assert _git(root, *args).returncode == 0
    hooks = root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in ("post-checkout", "pre-commit", "post-merge", "reference-transaction"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {marker}-hook-{name}\n")
        (hooks / name).chmod(0o755)
    monitor = root / "fsmonitor.sh"
    monitor.write_text(f"#!/bin/sh\ntouch {marker}-fsmonitor\n", encoding="utf-8")
    monitor.chmod(0o755)
    # A smudge filter would empty every file on checkout (and leave a marker).
    for key, value in (("core.fsmonitor", str(monitor)),
                       ("filter.x.clean", f"touch {marker}-clean; cat"),
                       ("filter.x.smudge", f"touch {marker}-smudge; true"),
                       ("filter.x.required", "true")):
        assert _git(root, "config", key, value).returncode == 0
    result = run("check", str(root), "--changed-since", "HEAD", "--no-cache", "-j", "1",
                 "-f", "json")
    assert result.exit_code == 0, result.output
    assert _markers(marker) == []
    document = json.loads(result.stdout)
    # The base had the same finding (its tools.py was the stored text): nothing is new.
    assert document["findings"] == []
    assert document["gate"]["counts"]["outside_changes"] == 1
