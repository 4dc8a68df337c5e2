"""`--changed-since REV`: the base revision is audited too; only new findings are reported."""

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
    assert "3 already present at HEAD" in run.stdout


@needs_git
def test_a_comment_in_a_file_with_old_findings_brings_none_back(repository: Path) -> None:
    # The old rule (findings touching a changed file) reported both billing findings here.
    rules = repository / "billing" / "rules.py"
    rules.write_text("# reviewed by the billing team\n" + rules.read_text())
    assert codes_reported(repository, "--changed-since", "HEAD") == []
    document = check(repository, "--changed-since", "HEAD", "-f", "json").json()
    assert document["gate"]["changed_files"] == ["billing/rules.py"]
    assert document["gate"]["counts"]["outside_changes"] == 3
    assert document["gate"]["base_commit"] == git(repository, "rev-parse", "HEAD").strip()


@needs_git
def test_a_new_finding_in_a_file_with_old_findings_is_reported(repository: Path) -> None:
    tools = repository / "tools.py"
    tools.write_text(tools.read_text() + "\n\n" + TOOL_APP.split("\n\n\n", 1)[1]
                     .replace("purge_workspace", "wipe_cache")
                     .replace("agent = Agent(name=\"ops\", tools=[wipe_cache])",
                              "other = Agent(name=\"cache\", tools=[wipe_cache])")
                     .format(body="    shutil.rmtree(path)"))
    new = check(repository, "--changed-since", "HEAD", "-f", "json", "--exit-zero").json()
    assert [(f["code"], f["file"], f["symbol"]) for f in new["findings"]] == \
        [("UNGOVERNED-PATH", "tools.py", "tools.wipe_cache")]
    assert check(repository, "--changed-since", "HEAD").exit_code == 1


@needs_git
def test_a_push_event_compares_with_the_previous_commit(repository: Path) -> None:
    (repository / "more_tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "a second tool")
    sha = git(repository, "rev-parse", "HEAD~1").strip()
    for revision in ("HEAD~1", sha):
        assert codes_reported(repository, "--changed-since", revision) == \
            [("UNGOVERNED-PATH", "more_tools.py")]
    assert codes_reported(repository, "--changed-since", "HEAD") == []


@needs_git
def test_committed_changes_on_a_branch_count_from_the_merge_base(repository: Path) -> None:
    git(repository, "checkout", "-q", "-b", "feature")
    (repository / "more_tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "add a tool")
    assert codes_reported(repository, "--changed-since", "main") == \
        [("UNGOVERNED-PATH", "more_tools.py")]
    git(repository, "checkout", "-q", "main")
    (repository / "main_tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "main moves on")
    git(repository, "checkout", "-q", "feature")
    # main's later commit is not a change of this branch (merge base, as `git diff main...`).
    assert codes_reported(repository, "--changed-since", "main") == \
        [("UNGOVERNED-PATH", "more_tools.py")]


@needs_git
def test_a_deleted_suppression_brings_its_finding_back(repository: Path) -> None:
    tools = repository / "tools.py"
    original = tools.read_text()
    tools.write_text(original.replace(
        "    shutil.rmtree(path)",
        "    shutil.rmtree(path)  # topo: ignore[UNGOVERNED-PATH] -- scratch space only"))
    git(repository, "commit", "-q", "-am", "suppress")
    tools.write_text(original)
    assert codes_reported(repository, "--changed-since", "HEAD") == [ALL[2]]


@needs_git
def test_an_audited_subdirectory_is_compared_with_the_same_subdirectory(tmp_path: Path) -> None:
    top = tmp_path / "mono"
    service = top / "services" / "ops"
    service.mkdir(parents=True)
    (service / "tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    git(top, "init", "-q", "-b", "main")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "initial")
    tools = service / "tools.py"
    tools.write_text("# a comment\n" + tools.read_text())
    assert codes_reported(service, "--changed-since", "HEAD") == []
    (service / "new.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    assert codes_reported(service, "--changed-since", "HEAD") == [("UNGOVERNED-PATH", "new.py")]


@needs_git
def test_a_directory_new_since_the_base_reports_everything(repository: Path) -> None:
    service = repository / "service"
    service.mkdir()
    (service / "tools.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)"))
    assert codes_reported(service, "--changed-since", "HEAD") == [("UNGOVERNED-PATH",
                                                                    "tools.py")]


@needs_git
def test_the_base_copy_is_written_outside_the_tree_and_removed(repository: Path) -> None:
    before = sorted(p.relative_to(repository) for p in repository.rglob("*"))
    check(repository, "--changed-since", "HEAD")
    assert sorted(p.relative_to(repository) for p in repository.rglob("*")) == before
    assert git(repository, "status", "--porcelain") == ""


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
    run = check(repository, "--changed-since", "HEAD~5")
    assert run.exit_code == 2 and "unknown revision 'HEAD~5'" in run.stderr
    assert "Traceback" not in run.stderr


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


@needs_git
def test_the_base_copy_leaves_out_what_the_audit_excludes(repository: Path) -> None:
    from topo.analyzers.discovery.inventory import DiscoveryConfig, kept_by
    from topo.audit.revision_tree import base_tree

    (repository / "node_modules" / "lib").mkdir(parents=True)
    (repository / "node_modules" / "lib" / "index.js").write_text("module.exports = 1;\n")
    (repository / "skipme").mkdir()
    (repository / "skipme" / "x.py").write_text("x = 1\n")
    git(repository, "add", "-A", "-f")
    git(repository, "commit", "-q", "-m", "vendored")
    keep = kept_by(DiscoveryConfig(exclude=("skipme/",)))
    with base_tree(repository, "HEAD", keep) as tree:
        copied = sorted(p.relative_to(tree.root).as_posix() for p in tree.root.rglob("*.*"))
        assert "tools.py" in copied and "billing/payments.py" in copied
        assert not any(name.startswith(("node_modules", "skipme")) for name in copied)
        assert tree.root.name == repository.name
        holder = tree.root.parent
    assert not holder.exists()
