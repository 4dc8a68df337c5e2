"""One bounded reader for every input file: configs, tsconfig, project config, CLI inputs.

A hostile tree can hold a FIFO (opening it blocks forever), `/dev/zero` (reading never ends), a
symlink out of the audited root, a huge or non-UTF-8 file, or JSON nested deep enough to
exhaust the parser's recursion. Each reader here refuses those with an `InputRefused` whose
reason names the problem in a few words, so the caller can turn it into an `Unknown` (audited
files) or a one-line usage error (CLI inputs). Nothing is opened before its type is checked.

Limits: `DEFAULT_MAX_BYTES` (1 MiB) per file unless the caller passes another; JSON nested
more than `MAX_JSON_DEPTH` (100) arrays/objects is refused before `json` sees it.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

__all__ = ["DEFAULT_MAX_BYTES", "MAX_JSON_DEPTH", "InputRefused", "json_depth", "load_json",
           "read_bytes", "read_text"]

DEFAULT_MAX_BYTES = 1024 * 1024
MAX_JSON_DEPTH = 100

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a directory"))
# Strings (with their escapes) and the brackets outside them: enough to measure JSON nesting.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[{]|[\]}]', re.DOTALL)


class InputRefused(Exception):
    """An input file topo will not read; `reason` says why without naming the file."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_bytes(path: Path, *, limit: int = DEFAULT_MAX_BYTES, root: Path | None = None) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them.

    With `root`, the file must lie inside `root` once symlinks are resolved. A FIFO, device,
    socket or directory is refused before it is opened; the read itself stops at `limit` + 1
    bytes, so a file that grows while read cannot make it unbounded.
    """
    if root is not None:
        real_root = os.path.realpath(root)
        real = os.path.realpath(path)
        if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
            raise InputRefused("outside the audited root (a symlink leads out of it)")
    try:
        info = os.stat(path)
    except OSError as error:
        raise InputRefused(_os_reason(error)) from None
    _require_regular(info.st_mode)
    if info.st_size > limit:
        raise InputRefused(f"too large ({info.st_size} bytes; the limit is {limit})")
    try:
        # O_NONBLOCK: if a FIFO was swapped in after the check, opening it must not block.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise InputRefused(_os_reason(error)) from None
    with os.fdopen(descriptor, "rb") as handle:
        _require_regular(os.fstat(handle.fileno()).st_mode)
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputRefused(f"too large (over {limit} bytes; the limit is {limit})")
    return data


def read_text(path: Path, *, limit: int = DEFAULT_MAX_BYTES, root: Path | None = None) -> str:
    """`read_bytes`, decoded as strict UTF-8 (a byte-order mark is dropped)."""
    data = read_bytes(path, limit=limit, root=root)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise InputRefused(f"not valid UTF-8 (byte {error.start})") from None


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in `text` (brackets inside strings do not count)."""
    depth = deepest = 0
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth = max(0, depth - 1)
    return deepest


def load_json(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> object:
    """`json.loads`, refusing documents nested deeper than `max_depth` before parsing them.
    A syntax error is still `json.JSONDecodeError`, with its line and column."""
    depth = json_depth(text)
    if depth > max_depth:
        raise InputRefused(f"nested too deeply ({depth} levels; the limit is {max_depth})")
    try:
        return json.loads(text)
    except RecursionError:   # the scan above makes this unreachable; kept as a backstop
        raise InputRefused(f"nested too deeply (the limit is {max_depth} levels)") from None


def _require_regular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), None)
    raise InputRefused(f"not a regular file ({kind})" if kind else "not a regular file")


def _os_reason(error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, PermissionError):
        return "permission denied"
    if error.errno is not None and error.errno == getattr(os, "ELOOP", -1):
        return "symlink loop"
    return f"not readable: {error.strerror or error}"
