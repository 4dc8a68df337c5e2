"""Listing the files under an audited root: through git when it is a work tree, else by walking.

Both listings return root-relative POSIX paths and the Unknowns met on the way; neither decides
what is source code (that is `discover`'s job). Directory exclusion is applied while walking so
that `node_modules` is never entered, and again by the caller for git's listing.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from topo.analyzers.discovery.git import neutral_environment, run_git
from topo.analyzers.model import Unknown

__all__ = ["Listing", "git_listing", "walk_listing"]

_GIT_TIMEOUT_SECONDS = 120


@dataclass(slots=True)
class Listing:
    files: list[str] = field(default_factory=list)
    unknowns: list[Unknown] = field(default_factory=list)
    # links that resolve to themselves (ELOOP): `discover` decides whether they matter
    loops: list[str] = field(default_factory=list)
    # directories the walk did not enter (excluded): counted, never listed file by file
    pruned: list[str] = field(default_factory=list)


def git_listing(root: Path, skip_dirs: frozenset[str]) -> tuple[Listing | None, str]:
    """List tracked and untracked-not-ignored files with `git ls-files`, run inside `root`.

    Returns (None, why) when git is missing, `root` is not inside a work tree, or git fails, so
    that the caller can fall back to walking and say why.
    """
    git = shutil.which("git")
    if git is None:
        return None, "git is not installed; the tree was walked instead"
    # The tree's own config must run nothing (core.fsmonitor runs on ls-files): see `git`.
    environment = neutral_environment(git, root, timeout=_GIT_TIMEOUT_SECONDS)
    probe = run_git(git, root, ["rev-parse", "--is-inside-work-tree"], environment,
                    timeout=_GIT_TIMEOUT_SECONDS)
    if probe is None or probe.returncode != 0 or probe.stdout.strip() != b"true":
        return None, "not a git work tree; the tree was walked instead"
    excludes = [argument for name in sorted(skip_dirs) for argument in ("-x", name)]
    result = run_git(git, root, ["ls-files", "-co", "--exclude-standard", "-z", *excludes],
                     environment, timeout=_GIT_TIMEOUT_SECONDS)
    if result is None or result.returncode != 0:
        reason = "git ls-files failed" if result is None else result.stderr.decode(
            "utf-8", "replace").strip()[:200]
        return None, f"git ls-files failed ({reason}); the tree was walked instead"
    listing = Listing()
    for raw in sorted(set(result.stdout.split(b"\0"))):
        if raw:
            _add_git_entry(root, os.fsdecode(raw), listing)
    return listing, "listed with git ls-files (tracked and untracked, not ignored)"


def _add_git_entry(root: Path, relative: str, listing: Listing) -> None:
    relative = relative.rstrip("/")
    path = root / relative
    if path.is_symlink():
        target = _symlink_target(root, path, relative, listing)
        if target is not None and target.is_file():
            listing.files.append(relative)
        # git does not follow directory symlinks; their targets inside the root are listed
        # under their own paths already.
        return
    if path.is_dir():
        listing.unknowns.append(Unknown(relative, "directory listed by git (a submodule or a "
                                                  "nested repository) was not audited"))
    elif path.is_file():
        listing.files.append(relative)


def walk_listing(root: Path, is_excluded_dir: Callable[[str], bool]) -> Listing:
    """Walk `root` in sorted order without following directory symlinks.

    A directory symlink to an ancestor is a loop and is recorded as an Unknown, one leaving the
    root likewise; one to another directory inside the root is skipped quietly, because that
    directory is listed under its own path (as git does).
    """
    listing = Listing()
    real_root = Path(os.path.realpath(root))
    _walk(root, "", real_root, (real_root,), is_excluded_dir, listing)
    listing.files.sort()
    return listing


def _walk(root: Path, prefix: str, real_root: Path, chain: tuple[Path, ...],
          is_excluded_dir: Callable[[str], bool], listing: Listing) -> None:
    directory = root / prefix if prefix else root
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError as error:
        listing.unknowns.append(Unknown(prefix or ".", f"directory not readable: {error.strerror}"))
        return
    for entry in entries:
        relative = f"{prefix}/{entry.name}" if prefix else entry.name
        if entry.is_symlink():
            target = _symlink_target(real_root, Path(entry.path), relative, listing)
            if target is None:
                continue
            if target.is_dir():
                if target in chain and not is_excluded_dir(relative):
                    listing.unknowns.append(Unknown(relative, "symlink loop skipped"))
            elif target.is_file():
                listing.files.append(relative)
        elif entry.is_dir(follow_symlinks=False):
            if not is_excluded_dir(relative):
                real = Path(os.path.realpath(entry.path))
                _walk(root, relative, real_root, (*chain, real), is_excluded_dir, listing)
            else:
                listing.pruned.append(relative)
        elif entry.is_file(follow_symlinks=False):
            listing.files.append(relative)


def _symlink_target(real_root: Path, path: Path, relative: str, listing: Listing) -> Path | None:
    """The resolved target of a symlink inside the root, or None (recorded when it matters)."""
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            listing.loops.append(relative)
        # A dangling link names nothing to audit.
        return None
    target = Path(os.path.realpath(path))
    real_root = Path(os.path.realpath(real_root))
    if target != real_root and real_root not in target.parents:
        listing.unknowns.append(Unknown(relative, "symlink to outside the audited root skipped"))
        return None
    if target == real_root:
        listing.unknowns.append(Unknown(relative, "symlink loop skipped"))
        return None
    return target
