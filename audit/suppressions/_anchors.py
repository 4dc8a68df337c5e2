"""Which lines a directive must sit on to cover a finding: its statement's, or the line above.

A finding is anchored to the smallest statement that contains the start of its primary
location: a call's enclosing statement (`Call.statement`), a return, an assignment, or a
compound statement's condition. A call that a formatter split over several lines is one
statement, so a directive on any of its lines, or on the line above its first, covers it
(Bandit's most common suppression bug, #136/#623/#880, is anchoring to one physical line).
The line above counts only when no statement sits on it: a directive trailing the previous
statement belongs to that statement, not to the next one.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.ir import FileIR, Guard
from topo.analyzers.model import Location

__all__ = ["statement_spans", "statement_of", "covers"]


def statement_spans(file: FileIR) -> tuple[Location, ...]:
    """Every statement-sized span the front-end recorded in `file`."""
    spans = {call.statement for call in file.calls}
    spans.update(item.location for item in (*file.returns, *file.assignments))
    spans.update(guard.location for guard in _guards(file))
    return tuple(sorted(spans))


def statement_of(location: Location, spans: tuple[Location, ...]) -> Location:
    """The statement a finding at `location` belongs to: the smallest recorded statement that
    contains its start, or else the first line of the location (a whole definition must not
    make every comment in its body a directive for it)."""
    containing = [span for span in spans if _starts_inside(location, span)]
    if containing:
        return min(containing, key=_size)
    return Location(location.file, location.line, location.column, location.line,
                    location.column)


def covers(directive: Location, statement: Location, spans: tuple[Location, ...]) -> bool:
    """Whether a directive comment at `directive` covers `statement`: it sits on one of the
    statement's lines, or alone on the line above the first (no other statement there, apart
    from the ones enclosing this one: a call in a callback inside a bigger statement)."""
    first, last = statement.line, statement.end_line or statement.line
    if first <= directive.line <= last:
        return True
    return directive.line == first - 1 and not any(
        span.line <= directive.line <= (span.end_line or span.line)
        for span in spans if not _encloses(span, statement))


def _guards(file: FileIR) -> Iterator[Guard]:
    for item in (*file.calls, *file.returns, *file.assignments):
        yield from item.guards
    for block in file.blocks:
        yield block.guard
        yield from block.guards


def _starts_inside(location: Location, span: Location) -> bool:
    if span.end_line is None or span.end_column is None:
        return span.line == location.line and span.column <= location.column
    start = (location.line, location.column)
    return (span.line, span.column) <= start < (span.end_line, span.end_column)


def _size(span: Location) -> tuple[int, int]:
    end_line = span.end_line or span.line
    return end_line - span.line, (span.end_column or span.column) - span.column


def _encloses(outer: Location, inner: Location) -> bool:
    end = (outer.end_line or outer.line, outer.end_column or outer.column)
    return (outer.line, outer.column) <= (inner.line, inner.column) and \
        (inner.end_line or inner.line, inner.end_column or inner.column) <= end
