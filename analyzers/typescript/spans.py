"""Positions of tree-sitter nodes, converted into `Location` once, and source text by slicing.

tree-sitter gives 0-based rows and 0-based **byte** columns into the UTF-8 source. `Location`
wants 1-based lines and 1-based **character** columns (STYLE §3), so `SourceText.location` is
the one place where bytes become characters: on a line that is pure ASCII both are equal, on
any other line the bytes before the column are decoded and counted.
"""

from __future__ import annotations

import tree_sitter

from topo.analyzers.model import Location

__all__ = ["SourceText", "TEXT_LIMIT"]

TEXT_LIMIT = 200


class SourceText:
    """One file's UTF-8 bytes: locations and source slices for any node."""

    __slots__ = ("path", "data", "_line_starts", "_ascii")

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = data
        starts = [0]
        index = data.find(b"\n")
        while index != -1:
            starts.append(index + 1)
            index = data.find(b"\n", index + 1)
        self._line_starts = starts
        # Columns of an ASCII-only file are byte columns: skip the per-line check.
        self._ascii: list[bool] | None = None if data.isascii() else [
            data[start:end].isascii() for start, end in zip(starts, [*starts[1:], len(data)])]

    def column(self, row: int, byte_column: int) -> int:
        """The 1-based character column of a 0-based (row, byte column) point."""
        if self._ascii is None or row >= len(self._ascii) or self._ascii[row]:
            return byte_column + 1
        start = self._line_starts[row]
        prefix = self.data[start:start + byte_column]
        return len(prefix.decode("utf-8", "replace")) + 1

    def location(self, node: tree_sitter.Node) -> Location:
        (row, column), (end_row, end_column) = node.start_point, node.end_point
        return Location(self.path, row + 1, self.column(row, column), end_row + 1,
                        self.column(end_row, end_column))

    def span(self, first: tree_sitter.Node, last: tree_sitter.Node) -> Location:
        """From the start of `first` to the end of `last` (a statement's header)."""
        (row, column), (end_row, end_column) = first.start_point, last.end_point
        return Location(self.path, row + 1, self.column(row, column), end_row + 1,
                        self.column(end_row, end_column))

    def keyword(self, node: tree_sitter.Node, keyword: str) -> Location:
        """The span of the keyword a node starts with (`try`, `catch`, `finally`)."""
        row, column = node.start_point
        start = self.column(row, column)
        return Location(self.path, row + 1, start, row + 1, start + len(keyword))

    def text(self, node: tree_sitter.Node, limit: int | None = TEXT_LIMIT) -> str:
        """The node's source as written (truncated to `limit` characters)."""
        raw = self.data[node.start_byte:node.end_byte]
        if limit is not None and len(raw) > limit * 4:
            raw = raw[:limit * 4]
        text = raw.decode("utf-8", "replace")
        return text if limit is None else text[:limit]
