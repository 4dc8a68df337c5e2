"""`--changed-since REV`: the whole graph is built, the report narrows to changed evidence."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.gate.gate_helpers import APPS, TOOL_APP, check

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(
    GIT is None, reason="git is not installed, so --changed-since cannot be tested here "
                        "(.ci/run and CI have git)")


def git(root: Path, *args: str) -> str:
    done = subprocess.run([GIT, *args], cwd=root, capture_output=True, text=True, check=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
                               "HOME": str(root), "PATH": "/usr/bin:/bin"})
    return done.stdout


@pytest.fixture()
def repository(tmp_path: Path) -> Path:
    """cross_file (two findings whose evidence spans four files) plus an unrelated tool file
    with its own UNGOVERNED-PATH, committed on `main`."""
    root = tmp_path / "repo"
    shutil.copytree(APPS / "cross_file", root)
    (root / "tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def codes_reported(root: Path, *args: str) -> list[tuple[str, str]]:
    run = check(root, "-f", "json", "--exit-zero", *args)
    assert run.exit_code == 0, run.stderr
    return sorted((f["code"], f["file"]) for f in run.json()["findings"])


ALL = [("HIDDEN-AUTHORITY", "billing/rules.py"), ("UNGOVERNED-PATH", "billing/payments.py"),
       ("UNGOVERNED-PATH", "tools.py")]


@needs_git
def test_nothing_changed_reports_nothing(repository: Path) -> None:
    assert codes_reported(repository) == ALL
    assert codes_reported(repository, "--changed-since", "HEAD") == []
    run = check(repository, "--changed-since", "HEAD")
    assert run.exit_code == 0
    assert "3 outside the changes since HEAD" in run.stdout


@needs_git
def test_a_change_on_the_path_reports_the_findings_through_it(repository: Path) -> None:
    # flow.py is neither finding's primary location: only their evidence paths touch it.
    flow = repository / "billing" / "flow.py"
    flow.write_text(flow.read_text() + "\n# reviewed\n")
    assert codes_reported(repository, "--changed-since", "HEAD") == ALL[:2]
    run = check(repository, "--changed-since", "HEAD")
    assert run.exit_code == 1
    assert "1 outside the changes since HEAD" in run.stdout
    document = check(repository, "--changed-since", "HEAD", "-f", "json").json()
    assert document["gate"]["changed_files"] == ["billing/flow.py"]


@needs_git
def test_committed_changes_on_a_branch_count_from_the_merge_base(repository: Path) -> None:
    git(repository, "checkout", "-q", "-b", "feature")
    tools = repository / "tools.py"
    tools.write_text(tools.read_text().replace("purged", "gone"))
    git(repository, "commit", "-q", "-am", "change the tool")
    assert codes_reported(repository, "--changed-since", "main") == [ALL[2]]
    git(repository, "checkout", "-q", "main")
    (repository / "billing" / "rules.py").write_text(
        (repository / "billing" / "rules.py").read_text() + "\n")
    git(repository, "commit", "-q", "-am", "main moves on")
    git(repository, "checkout", "-q", "feature")
    # main's later commit is not a change of this branch (merge base, as `git diff main...`).
    assert codes_reported(repository, "--changed-since", "main") == [ALL[2]]


@needs_git
def test_untracked_files_count_as_changed(repository: Path) -> None:
    (repository / "more_tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    assert codes_reported(repository, "--changed-since", "HEAD") == \
        [("UNGOVERNED-PATH", "more_tools.py")]


@needs_git
def test_an_unknown_revision_is_exit_2(repository: Path) -> None:
    run = check(repository, "--changed-since", "no-such-branch")
    assert run.exit_code == 2
    assert "unknown revision 'no-such-branch'" in run.stderr
    run = check(repository, "--changed-since", "--output=x")
    assert run.exit_code == 2 and "is not a revision" in run.stderr


@needs_git
def test_outside_a_work_tree_is_exit_2(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    (root / "main.py").write_text("print('hi')\n")
    run = check(root, "--changed-since", "HEAD")
    assert run.exit_code == 2
    assert "is not inside a git work tree" in run.stderr


def test_missing_git_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    (root / "main.py").write_text("print('hi')\n")
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    run = check(root, "--changed-since", "HEAD")
    assert run.exit_code == 2
    assert "git is not installed" in run.stderr
