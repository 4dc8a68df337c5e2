"""Gitignore-style exclude patterns, compiled once per discovery, matched in linear time.

Supported: `*` and `?` within one path segment, `[...]` classes, `**` as a whole segment for
any number of segments (`**/x`, `a/**/b`; a trailing `/**` for everything inside), a trailing
`/` for directories only, and anchoring: a pattern with a `/` before its end is relative to the
root, one without matches a name at any depth. A `**` inside a segment is a plain `*`, as in
git. A path is excluded when it or any of its parent directories matches. Negation
(`!pattern`) is not supported; the caller rejects it rather than silently ignoring it.

Why not a translated regular expression: the patterns come from the audited repository's own
`pyproject.toml`, and a backtracking engine takes exponential time on `**/a/**/a/…` (a plain
translation, and `pathspec`'s, hang on 30 such segments). Here each `*` (and each `**`) is a
gap between fixed-length pieces, and a match takes every piece at its leftmost place, which is
correct for gaps that accept anything and never backtracks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["GlobSet", "PatternError", "compile_glob"]


class PatternError(ValueError):
    """An exclude pattern topo cannot honour (the user's input, not a bug)."""


@dataclass(frozen=True, slots=True)
class _Segment:
    """One segment's pattern: fixed-length pieces (regexes) separated by `*` gaps."""

    pieces: tuple[re.Pattern[str], ...]
    lengths: tuple[int, ...]
    starred: bool       # at least one `*`: the first and last piece are anchored, the rest float

    def matches(self, name: str) -> bool:
        if not self.starred:
            return self.pieces[0].fullmatch(name) is not None
        first, last = self.lengths[0], self.lengths[-1]
        if first + last > len(name) or not self.pieces[0].match(name) or \
                not self.pieces[-1].fullmatch(name, len(name) - last):
            return False
        return _in_order(self.pieces[1:-1], name, first, len(name) - last)


def _in_order(pieces: tuple[re.Pattern[str], ...], name: str, start: int, end: int) -> bool:
    for piece in pieces:
        found = piece.search(name, start, end)
        if found is None:
            return False
        start = found.end()
    return True


@dataclass(frozen=True, slots=True)
class _Glob:
    groups: tuple[tuple[_Segment, ...], ...]   # fixed runs of segments between `**` gaps
    directories_only: bool

    def matches(self, path: str) -> bool:
        segments = path.split("/")
        groups = self.groups
        if len(groups) == 1:
            return len(segments) == len(groups[0]) and _run_at(groups[0], segments, 0)
        head, tail = groups[0], groups[-1]
        end = len(segments) - len(tail)
        if len(head) > end or not _run_at(head, segments, 0) or not _run_at(tail, segments, end):
            return False
        start = len(head)
        for group in groups[1:-1]:  # leftmost placement of each run, in order
            found = next((i for i in range(start, end - len(group) + 1)
                          if _run_at(group, segments, i)), None)
            if found is None:
                return False
            start = found + len(group)
        return True


def _run_at(group: tuple[_Segment, ...], segments: list[str], index: int) -> bool:
    return all(pattern.matches(segments[index + offset]) for offset, pattern in enumerate(group))


def compile_glob(pattern: str) -> _Glob:
    """Compile one gitignore-ish pattern (see the module docstring)."""
    text = pattern.strip()
    if not text or text.startswith("!"):
        raise PatternError(f"unsupported exclude pattern {pattern!r} (negated `!` patterns are "
                           "not supported)")
    directories_only = text.endswith("/")
    text = text.rstrip("/")
    anchored = "/" in text
    text = text.lstrip("/")
    if not anchored and not text.startswith("**"):
        text = "**/" + text
    names = text.split("/")
    if names[-1] == "**":       # a trailing `**` is everything inside: at least one segment
        names[-1:] = ["*", "**"]
    groups: list[list[_Segment]] = [[]]
    for name in names:
        if name == "**":
            if groups[-1] or len(groups) == 1:
                groups.append([])
        else:
            groups[-1].append(_segment(name))
    return _Glob(tuple(tuple(group) for group in groups), directories_only)


def _segment(name: str) -> _Segment:
    pieces: list[list[str]] = [[]]
    index = 0
    while index < len(name):
        char = name[index]
        if char == "*":
            pieces.append([])
            while index < len(name) and name[index] == "*":
                index += 1
            continue
        if char == "[" and "]" in name[index + 1:]:
            end = name.index("]", index + 1)
            body = name[index + 1:end].replace("\\", "\\\\")
            pieces[-1].append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            index = end + 1
            continue
        pieces[-1].append("[^/]" if char == "?" else re.escape(char))
        index += 1
    try:
        compiled = tuple(re.compile("".join(piece)) for piece in pieces)
    except re.error as error:
        raise PatternError(f"unsupported exclude pattern segment {name!r} ({error})") from None
    return _Segment(compiled, tuple(len(piece) for piece in pieces), len(pieces) > 1)


class GlobSet:
    """A set of compiled patterns; `matches` answers for one path (POSIX, root-relative)."""

    __slots__ = ("_globs",)

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self._globs = tuple(compile_glob(pattern) for pattern in patterns)

    def matches(self, path: str, is_dir: bool) -> bool:
        """True when `path` itself matches (a directory-only pattern needs `is_dir`)."""
        return any((is_dir or not glob.directories_only) and glob.matches(path)
                   for glob in self._globs)

    def excludes(self, path: str) -> bool:
        """True when the file `path` or one of its parent directories matches."""
        segments = path.split("/")
        for depth in range(1, len(segments)):
            if self.matches("/".join(segments[:depth]), True):
                return True
        return self.matches(path, False)
