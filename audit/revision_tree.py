"""A past revision of an audited tree, written into a temporary directory outside it.

`topo check --changed-since REV` audits the merge base of REV and HEAD as well as the work
tree, to report only what is new. The base's files are read straight from git's object store
(`git ls-tree` lists them, `git cat-file --batch` prints their bytes), never checked out: no
checkout means no hooks (`post-checkout`), no attribute filters (`smudge`, `process`), no
`export-ignore`/`export-subst` rewriting (which `git archive` applies), and nothing written into
the audited repository or its `.git`. Every git command runs in the neutral environment of
`topo.analyzers.discovery.git`. Symlinks and submodules of the base are not written (a link
could point the writer outside the directory; a submodule has no blobs here): their findings
count as new, the conservative side.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from topo.analyzers.discovery.git import neutral_environment
from topo.audit.vcs import VcsError, git_output, merge_base, repository_path

__all__ = ["BaseTree", "MAX_BLOB_BYTES", "base_tree"]

# The largest file an audit reads (EMU files); a bigger blob is left out, not buffered.
MAX_BLOB_BYTES = 256 * 1024 * 1024
_TIMEOUT_SECONDS = 300
_REGULAR_MODES = frozenset({"100644", "100755"})


@dataclass(frozen=True, slots=True)
class BaseTree:
    """The base revision's copy of the audited root: `root` is a directory named like the
    audited root (module names derive from it), `commit` the merge base written there."""

    root: Path
    commit: str
    files: int
    left_out: tuple[str, ...] = ()   # symlinks, submodules and oversized blobs not written


@contextmanager
def base_tree(root: Path, revision: str,
              keep: Callable[[str], bool] = lambda path: True) -> Iterator[BaseTree]:
    """The merge base of `revision` and HEAD, as files under a fresh temporary directory that
    is removed afterwards. The directory is never inside the audited tree. A root that did not
    exist at the base gives an empty tree (everything is new). Only paths `keep` accepts are
    written (the audit's exclusions: a committed `node_modules/` is not copied)."""
    base = merge_base(root, revision)
    prefix = repository_path(root)
    holder = Path(tempfile.mkdtemp(prefix="topo-base-"))
    try:
        if _is_inside(holder, root):
            raise VcsError(f"the temporary directory {holder} lies inside the audited tree; "
                           "set TMPDIR to a directory outside it")
        target = holder / (Path(os.path.realpath(root)).name or "root")
        target.mkdir()
        treeish = f"{base}:{prefix}" if prefix else f"{base}^{{tree}}"
        entries = [entry for entry in _entries(root, treeish) if keep(entry.path)]
        files, left_out = _write(root, entries, target)
        yield BaseTree(target, base, files, tuple(left_out))
    finally:
        shutil.rmtree(holder, ignore_errors=True)


@dataclass(frozen=True, slots=True)
class _Entry:
    mode: str
    kind: str
    object_id: str
    size: int | None
    path: str


def _entries(root: Path, treeish: str) -> list[_Entry]:
    try:   # (`REV:path^{tree}` would read `^{tree}` as part of the path)
        kind = git_output(root, "cat-file", "-t", treeish).strip()
    except VcsError:
        kind = ""
    if kind != "tree":
        return []   # the audited directory did not exist at the base
    listing = git_output(root, "ls-tree", "-r", "-z", "--long", "--full-tree", treeish)
    entries = []
    for record in listing.split("\0"):
        if not record:
            continue
        header, _, path = record.partition("\t")
        mode, kind, object_id, size = header.split(maxsplit=3)
        entries.append(_Entry(mode, kind, object_id,
                              int(size) if size.strip().isdigit() else None, path))
    return entries


def _write(root: Path, entries: list[_Entry], target: Path) -> tuple[int, list[str]]:
    blobs, left_out = [], []
    for entry in entries:
        safe = _safe_relative(entry.path)
        if (entry.kind != "blob" or entry.mode not in _REGULAR_MODES or safe is None
                or entry.size is None or entry.size > MAX_BLOB_BYTES):
            left_out.append(entry.path)
        else:
            blobs.append((entry, safe))
    if not blobs:
        return 0, left_out
    git = shutil.which("git")
    if git is None:
        raise VcsError("git is not installed (not found on PATH)")
    environment = neutral_environment(git, root, timeout=_TIMEOUT_SECONDS)
    # `--batch` prints stored bytes: no textconv, no filters (those need `--filters`).
    with subprocess.Popen([git, "cat-file", "--batch"], cwd=root, env=environment,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as process:
        try:
            for entry, relative in blobs:
                _copy_blob(process, entry, target / relative)
        finally:
            process.stdin.close()
            process.kill()
    return len(blobs), left_out


def _copy_blob(process: subprocess.Popen, entry: _Entry, destination: Path) -> None:
    """Ask for one object and write its bytes; one request at a time, so no pipe fills."""
    process.stdin.write(f"{entry.object_id}\n".encode("ascii"))
    process.stdin.flush()
    header = process.stdout.readline().split()
    if len(header) != 3 or header[1] != b"blob":
        raise VcsError(f"git cat-file could not read {entry.path} of the base revision")
    size = int(header[2])
    destination.parent.mkdir(parents=True, exist_ok=True)
    # O_EXCL | O_NOFOLLOW: a fresh regular file, never through a link.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(destination, flags, 0o600), "wb") as out:
        remaining = size
        while remaining:
            chunk = process.stdout.read(min(remaining, 1 << 20))
            if not chunk:
                raise VcsError(f"git cat-file stopped while reading {entry.path}")
            out.write(chunk)
            remaining -= len(chunk)
    process.stdout.read(1)   # the newline after the content


def _safe_relative(path: str) -> PurePosixPath | None:
    """`path` when it stays inside the directory (no `..`, absolute or `.git` part)."""
    pure = PurePosixPath(path)
    if pure.is_absolute() or any(part in ("..", ".", "", ".git") for part in pure.parts):
        return None
    return pure


def _is_inside(path: Path, root: Path) -> bool:
    real, real_root = os.path.realpath(path), os.path.realpath(root)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)
