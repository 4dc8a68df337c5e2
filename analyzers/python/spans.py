"""Positions of CST nodes, converted into `Location` once, and source text by slicing.

libcst's `PositionProvider` computes positions by generating the code of the whole module while
recording a `CodeRange` per node. On real code it costs about three times the parse itself, which
alone breaks the front-end's budget (within ~2x of a bare parse). `_PositionState` runs the very
same code generation with a cheaper recorder (plain tuples, a fast path for tokens without
newlines, a slotted context manager instead of a generator); a test checks that its positions
equal `PositionProvider`'s. If libcst's internals ever change shape, `node_positions` falls back
to `PositionProvider` through one `MetadataWrapper` pass.

libcst positions are 1-based lines and 0-based character columns with an exclusive end;
`Location` wants 1-based columns, so `SourceText.location` adds one to both columns.
"""

from __future__ import annotations

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import MetadataWrapper, PositionProvider

from audit.model import Location

__all__ = ["Position", "Span", "SourceText", "node_positions"]

Position = tuple[int, int]     # (1-based line, 0-based column)
Span = tuple[Position, Position]

TEXT_LIMIT = 200


class _Recorder:
    """`record_syntactic_position` as a slotted context manager (libcst uses `with` on it)."""

    __slots__ = ("_state", "_node", "_start_node", "_end_node", "_start")

    def __init__(self, state: _PositionState, node: cst.CSTNode, start_node: cst.CSTNode | None,
                 end_node: cst.CSTNode | None) -> None:
        self._state = state
        self._node = node
        self._start_node = start_node
        self._end_node = end_node
        self._start = (state.line, state.column)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> bool:
        state = self._state
        spans = state.spans
        start = spans[id(self._start_node)][0] if self._start_node is not None else self._start
        end = spans[id(self._end_node)][1] if self._end_node is not None else (state.line,
                                                                                state.column)
        spans[id(self._node)] = (start, end)
        return False


class _PositionState(CodegenState):
    """Code generation that only counts lines and columns (it keeps no tokens)."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.line = 1
        self.column = 0
        self.spans: dict[int, Span] = {}   # by id(node): CSTNode.__hash__ is Python code
        self.comments: list[cst.Comment] = []
        self._stack: list[Position] = []

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            segments = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def pop_trailing_newline(self) -> None:
        return None

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._stack.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._stack.pop()
        # A syntactic position recorded inside the node's codegen wins (as in libcst).
        key = id(node)
        if key not in self.spans:
            self.spans[key] = (start, (self.line, self.column))
        if type(node) is cst.Comment:
            self.comments.append(node)

    def record_syntactic_position(self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
                                  end_node: cst.CSTNode | None = None) -> _Recorder:
        return _Recorder(self, node, start_node, end_node)


def node_positions(module: cst.Module) -> tuple[dict[int, Span], list[cst.Comment]]:
    """The syntactic span of every node by `id(node)` (as `PositionProvider` defines spans)
    and the comments. The ids stay valid while `module` is alive."""
    state = _PositionState(module)
    try:
        module._codegen(state)  # noqa: SLF001 - see the module docstring
        return state.spans, state.comments
    except (AttributeError, TypeError, KeyError):
        ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        spans = {id(node): ((r.start.line, r.start.column), (r.end.line, r.end.column))
                 for node, r in ranges.items()}
        return spans, [node for node in ranges if isinstance(node, cst.Comment)]


class SourceText:
    """One file's text and node spans: locations and source slices for any node."""

    __slots__ = ("path", "source", "spans", "_line_starts")

    def __init__(self, path: str, source: str, spans: dict[int, Span]) -> None:
        self.path = path
        self.source = source
        self.spans = spans
        starts = [0]
        index = source.find("\n")
        while index != -1:
            starts.append(index + 1)
            index = source.find("\n", index + 1)
        self._line_starts = starts

    def start(self, node: cst.CSTNode) -> Position:
        return self.spans[id(node)][0]

    def end(self, node: cst.CSTNode) -> Position:
        return self.spans[id(node)][1]

    def location(self, node: cst.CSTNode) -> Location:
        (line, column), (end_line, end_column) = self.spans[id(node)]
        return Location(self.path, line, column + 1, end_line, end_column + 1)

    def header(self, first: cst.CSTNode, last: cst.CSTNode) -> Location:
        """From the start of `first` to the end of `last`: a compound statement's header."""
        (line, column), _ = self.spans[id(first)]
        _, (end_line, end_column) = self.spans[id(last)]
        return Location(self.path, line, column + 1, end_line, end_column + 1)

    def text(self, node: cst.CSTNode, limit: int | None = TEXT_LIMIT) -> str:
        """The node's source as written (truncated to `limit` characters)."""
        (line, column), (end_line, end_column) = self.spans[id(node)]
        begin = self._line_starts[line - 1] + column
        end = self._line_starts[end_line - 1] + end_column
        if limit is not None:
            end = min(end, begin + limit)
        return self.source[begin:end]
