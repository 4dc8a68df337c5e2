"""The source lines under a finding, with a caret under its span, for `topo check` text.

Lines are read through the bounded reader (`topo.analyzers.reading`: a regular file inside the
audited root, at most the discovery size limit, strict UTF-8), opened read-only, and never
written. A file that cannot be read so gives no frame rather than an error: the finding line
above it says everything that matters. Terminal control characters in the source (an escape
sequence hidden in a string) are shown as `\\xNN`, never sent to the terminal; tabs become
spaces so that the caret lines up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from topo.analyzers.discovery.inventory import DEFAULT_MAX_FILE_SIZE
from topo.analyzers.model import Location
from topo.analyzers.notebooks import read_limit
from topo.analyzers.reading import InputRefused, read_text

__all__ = ["SourceLines", "code_frame", "MAX_FRAME_LINES"]

MAX_FRAME_LINES = 3
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_TAB = 4


class SourceLines:
    """Each file's lines, read once per report. `convert` turns a file's text into the lines
    findings are numbered against (a notebook's code cells); None keeps the text's lines."""

    def __init__(self, root: Path, convert: Callable[[str, str], list[str] | None] | None = None
                 ) -> None:
        self.root = root
        self.convert = convert
        self._lines: dict[str, list[str] | None] = {}

    def lines(self, file: str) -> list[str] | None:
        if file not in self._lines:
            self._lines[file] = self._read(file)
        return self._lines[file]

    def _read(self, file: str) -> list[str] | None:
        try:
            text = read_text(self.root / file, limit=read_limit(file, DEFAULT_MAX_FILE_SIZE),
                             root=self.root)
        except InputRefused:
            return None
        if self.convert is not None:
            return self.convert(file, text)
        return text.split("\n")


def code_frame(lines: list[str] | None, location: Location, *,
               style: Callable[[str, str], str] = lambda text, role: text,
               label: Callable[[int], str] = str) -> list[str]:
    """`  7 | stripe.Refund.create(...)` and `    |     ^^^^^^` (at most `MAX_FRAME_LINES`
    lines of the span). `style(text, role)` colours a piece (`gutter`, `caret`); `label`
    names a line in the gutter (a notebook's line in its cell)."""
    if not lines or not 1 <= location.line <= len(lines):
        return []
    last = min(location.end_line or location.line, location.line + MAX_FRAME_LINES - 1,
               len(lines))
    labels = {number: label(number) for number in range(location.line, last + 1)}
    width = max(len(text) for text in labels.values())
    frame = []
    for number in range(location.line, last + 1):
        text = _printable(lines[number - 1])
        frame.append(f"  {style(f'{labels[number]:>{width}} |', 'gutter')} {text}")
        if number == location.line:
            frame.append(f"  {style(' ' * width + ' |', 'gutter')} "
                         f"{_caret(lines[number - 1], location, style)}")
    return frame


def _caret(raw: str, location: Location, style: Callable[[str, str], str]) -> str:
    column = max(1, location.column or 1)
    same_line = location.end_line in (None, location.line)
    end = location.end_column if same_line and location.end_column else len(raw) + 1
    start = len(_printable(raw[:column - 1]))
    stop = max(start + 1, len(_printable(raw[:max(column, end) - 1])))
    return " " * start + style("^" * (stop - start), "caret")


def _printable(text: str) -> str:
    text = text.expandtabs(_TAB)
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
