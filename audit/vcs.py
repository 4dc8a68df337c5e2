"""What git says about an audited tree: where it sits in its repository, what changed.

Only the gate and reports ask; the audit itself never needs git (discovery lists files with git
when it can and walks the tree otherwise). Every command runs with optional locks off, so that
asking never writes into the audited repository's `.git`, and with the repository's
command-running config overridden (`topo.analyzers.discovery.git`), so that asking never runs a
program the audited tree names.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from topo.analyzers.discovery.git import neutral_environment, run_git

__all__ = ["VcsError", "changed_files", "git_output", "merge_base", "repository_path"]

_TIMEOUT_SECONDS = 60


class VcsError(Exception):
    """git is missing, the tree is not a work tree, or a revision is unknown."""


def repository_path(root: Path) -> str:
    """The audited root's path inside its git work tree (`services/agent`), `` when it is the
    top of the work tree, outside any work tree, or git is not installed. SARIF locations are
    relative to the repository, so that code scanning can find the files."""
    try:
        prefix = git_output(root, "rev-parse", "--show-prefix").strip()
    except VcsError:
        return ""
    return prefix.rstrip("/")


def merge_base(root: Path, revision: str) -> str:
    """The commit id of the merge base of `revision` and HEAD (for `HEAD~1` or a SHA on a
    push: that commit itself). Raises VcsError naming the problem: git missing, not a work
    tree, a revision git does not know."""
    if revision.startswith("-") or not revision.strip():
        raise VcsError(f"{revision!r} is not a revision")
    if shutil.which("git") is None:
        raise VcsError("git is not installed (not found on PATH)")
    try:
        inside = git_output(root, "rev-parse", "--is-inside-work-tree").strip() == "true"
    except VcsError:
        inside = False
    if not inside:
        raise VcsError(f"{root} is not inside a git work tree")
    try:
        git_output(root, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except VcsError:
        raise VcsError(f"unknown revision {revision!r} (git knows no commit by that name; "
                       "in CI, fetch enough history, e.g. actions/checkout with "
                       "fetch-depth: 0)") from None
    try:
        return git_output(root, "merge-base", revision, "HEAD").strip()
    except VcsError:
        raise VcsError(f"revision {revision!r} shares no history with HEAD (no merge base; "
                       "in CI, fetch enough history)") from None


def changed_files(root: Path, revision: str) -> frozenset[str]:
    """Files under `root` (root-relative, `/` separators) that differ from the merge base of
    `revision` and HEAD: committed since, staged, unstaged, and untracked-not-ignored files."""
    base = merge_base(root, revision)
    # `--relative` (run inside root) keeps only paths under root, relative to it.
    tracked = git_output(root, "diff", "--no-ext-diff", "--no-textconv", "--name-only",
                         "--no-renames", "--relative", "-z", base)
    untracked = git_output(root, "ls-files", "--others", "--exclude-standard", "-z")
    return frozenset(name for name in (*tracked.split("\0"), *untracked.split("\0")) if name)


def git_output(root: Path, *arguments: str) -> str:
    """The standard output of `git ARGUMENTS` run inside `root` in the neutral environment;
    VcsError when git is missing, fails or runs too long."""
    git = shutil.which("git")
    if git is None:
        raise VcsError("git is not installed (not found on PATH)")
    environment = neutral_environment(git, root, timeout=_TIMEOUT_SECONDS)
    done = run_git(git, root, arguments, environment, timeout=_TIMEOUT_SECONDS)
    if done is None:
        raise VcsError(f"git {arguments[0]} could not run (or ran past {_TIMEOUT_SECONDS} s)")
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise VcsError(f"git {arguments[0]} failed: {message[-1] if message else 'no message'}")
    return done.stdout.decode("utf-8", "surrogateescape")
