"""Gitignore-style exclude patterns, compiled once per discovery.

Supported: `*` and `?` within one path segment, `[...]` classes, `**` across segments, a
trailing `/` for directories only, and anchoring: a pattern with a `/` before its end is
relative to the root, one without matches a name at any depth. A path is excluded when it or
any of its parent directories matches. Negation (`!pattern`) is not supported; the caller
rejects it rather than silently ignoring it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["GlobSet", "PatternError", "compile_glob"]


class PatternError(ValueError):
    """An exclude pattern topo cannot honour (the user's input, not a bug)."""


@dataclass(frozen=True, slots=True)
class _Glob:
    regex: re.Pattern[str]
    directories_only: bool


def compile_glob(pattern: str) -> _Glob:
    """Translate one gitignore-ish pattern into an anchored regular expression."""
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
    return _Glob(re.compile(_translate(text)), directories_only)


def _translate(text: str) -> str:
    parts: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if text.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
        elif text.startswith("**", index):
            parts.append(".*")
            index += 2
        elif char == "*":
            parts.append("[^/]*")
            index += 1
        elif char == "?":
            parts.append("[^/]")
            index += 1
        elif char == "[" and "]" in text[index + 1:]:
            end = text.index("]", index + 1)
            body = text[index + 1:end].replace("\\", "\\\\")
            if body.startswith("!"):
                body = "^" + body[1:]
            parts.append(f"[{body}]")
            index = end + 1
        else:
            parts.append(re.escape(char))
            index += 1
    return "".join(parts) + r"\Z"


class GlobSet:
    """A set of compiled patterns; `matches` answers for one path (POSIX, root-relative)."""

    __slots__ = ("_globs",)

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self._globs = tuple(compile_glob(pattern) for pattern in patterns)

    def matches(self, path: str, is_dir: bool) -> bool:
        """True when `path` itself matches (a directory-only pattern needs `is_dir`)."""
        return any(glob.regex.match(path) and (is_dir or not glob.directories_only)
                   for glob in self._globs)

    def excludes(self, path: str) -> bool:
        """True when the file `path` or one of its parent directories matches."""
        segments = path.split("/")
        for depth in range(1, len(segments)):
            if self.matches("/".join(segments[:depth]), True):
                return True
        return self.matches(path, False)
