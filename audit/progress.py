"""Progress on standard error: what stage a long audit is in and how many files are parsed.

Progress is a side channel. It never goes to standard output and never changes a result: the
pipeline only *tells* a `Progress` where it is. On a terminal the status line appears only once
an audit has run for a couple of seconds, and is erased at the end; elsewhere (CI logs, pipes)
nothing is written unless `--verbose` asks for one line per stage.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, TextIO

__all__ = ["Progress", "NO_PROGRESS", "TerminalProgress", "VerboseProgress", "progress_for",
           "SHOW_AFTER_SECONDS"]

# Short audits stay silent: a status line that flashes for half a second is noise.
SHOW_AFTER_SECONDS = 2.0
_REDRAW_SECONDS = 0.1
_CLEAR_LINE = "\r\x1b[K"


class Progress(Protocol):
    def stage(self, name: str) -> None:
        """A new stage starts (`parsing 120 files`, `running checks`)."""

    def files(self, done: int, total: int) -> None:
        """`done` of `total` files are parsed."""

    def count(self, done: int, total: int, what: str) -> None:
        """`done` of `total` items are through (`what`: "EMUs fuzzed")."""

    def finish(self) -> None:
        """The run is over (successfully or not): leave the terminal clean."""


class _Silent:
    def stage(self, name: str) -> None:
        pass

    def files(self, done: int, total: int) -> None:
        pass

    def count(self, done: int, total: int, what: str) -> None:
        pass

    def finish(self) -> None:
        pass


NO_PROGRESS: Progress = _Silent()


class TerminalProgress:
    """One status line, redrawn in place, shown only after `delay` seconds."""

    def __init__(self, stream: TextIO, *, delay: float = SHOW_AFTER_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._stream, self._delay, self._clock = stream, delay, clock
        self._started = clock()
        self._drawn_at: float | None = None
        self._stage = ""
        self._shown = False

    def stage(self, name: str) -> None:
        self._stage = name
        self._draw(f"topo: {name}", force=True)

    def files(self, done: int, total: int) -> None:
        self._draw(f"topo: parsed {done}/{total} files", force=done == total)

    def count(self, done: int, total: int, what: str) -> None:
        self._draw(f"topo: {done}/{total} {what}", force=done == total)

    def finish(self) -> None:
        if self._shown:
            self._stream.write(_CLEAR_LINE)
            self._stream.flush()
            self._shown = False

    def _draw(self, text: str, *, force: bool) -> None:
        now = self._clock()
        if now - self._started < self._delay:
            return
        if not force and self._drawn_at is not None and now - self._drawn_at < _REDRAW_SECONDS:
            return
        self._stream.write(f"{_CLEAR_LINE}{text}")
        self._stream.flush()
        self._drawn_at, self._shown = now, True


class VerboseProgress:
    """One line per stage, with the time since the start: for logs and `--verbose`."""

    def __init__(self, stream: TextIO, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._stream, self._clock = stream, clock
        self._started = clock()

    def stage(self, name: str) -> None:
        self._line(name)

    def files(self, done: int, total: int) -> None:
        if done == total:
            self._line(f"parsed {total} files")

    def count(self, done: int, total: int, what: str) -> None:
        if done == total:
            self._line(f"{total} {what}")

    def finish(self) -> None:
        self._line("done")

    def _line(self, text: str) -> None:
        self._stream.write(f"topo: [{self._clock() - self._started:7.2f}s] {text}\n")
        self._stream.flush()


def progress_for(stream: TextIO, *, quiet: bool = False, verbose: bool = False) -> Progress:
    """The progress a command shows on `stream` (standard error): none when quiet, a line per
    stage when verbose, a delayed status line on a terminal, nothing otherwise."""
    if quiet:
        return NO_PROGRESS
    if verbose:
        return VerboseProgress(stream)
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        return TerminalProgress(stream)
    return NO_PROGRESS
