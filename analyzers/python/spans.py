"""Positions of CST nodes, converted into `Location` once, and source text by slicing.

libcst's `PositionProvider` computes positions by generating the code of the whole module while
recording a `CodeRange` per node. On real code it costs about three times the parse itself, which
alone breaks the front-end's budget (within ~2x of a bare parse). `_PositionState` runs the very
same code generation with a cheaper recorder (plain tuples keyed by node id, a fast path for
tokens without newlines, the state as its own context manager instead of a generator); a test
checks that its positions equal `PositionProvider`'s. If libcst's internals ever change shape,
`node_positions` falls back to `PositionProvider` through one `MetadataWrapper` pass.

libcst positions are 1-based lines and 0-based character columns with an exclusive end;
`Location` wants 1-based columns, so `SourceText.location` adds one to both columns.
"""

from __future__ import annotations

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import MetadataWrapper, PositionProvider

from topo.analyzers.model import Location

__all__ = ["Position", "Span", "SourceText", "node_positions", "unpack_span"]

Position = tuple[int, int]     # (1-based line, 0-based column)
Span = tuple[Position, Position]

TEXT_LIMIT = 200
_COMMENT = cst.Comment
# Spans are kept packed in one int per node, `start << 64 | end` with `position = line << 32 |
# column`: a file has hundreds of thousands of nodes, and ints (unlike tuples) are not tracked
# by the garbage collector, whose passes over tuples cost a quarter of the front-end's time.
_HALF = 32
# Whitespace and punctuation: about half of all nodes, never asked for (nor used by libcst as
# the start or end of another node's span), so their spans are not kept.
_UNRECORDED = frozenset({
    cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.Newline,
    cst.EmptyLine, cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual,
    cst.LeftParen, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
    cst.RightCurlyBrace, cst.AsName, cst.ImportStar,
    *(operator for base in (cst.BaseBinaryOp, cst.BaseAugOp, cst.BaseCompOp, cst.BaseUnaryOp,
                            cst.BaseBooleanOp) for operator in base.__subclasses__()),
})
_POSITION_MASK = (1 << _HALF) - 1
_END_MASK = (1 << 2 * _HALF) - 1


def _unpack_position(packed: int) -> Position:
    return packed >> _HALF, packed & _POSITION_MASK


def unpack_span(packed: int) -> Span:
    """The ((line, column), (end line, end column)) of a packed span."""
    return _unpack_position(packed >> 2 * _HALF), _unpack_position(packed & _END_MASK)


def _pack_span(start: Position, end: Position) -> int:
    return (((start[0] << _HALF | start[1]) << 2 * _HALF) | end[0] << _HALF | end[1])


class _PositionState(CodegenState):
    """Code generation that only counts lines and columns (it keeps no tokens)."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.line = 1
        self.column = 0
        self.spans: dict[int, int] = {}   # by id(node) (CSTNode.__hash__ is Python code)
        self.comments: list[cst.Comment] = []
        stack: list[int] = []
        self._push = stack.append
        self._pop = stack.pop
        self._records: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None,
                                  int]] = []

    def add_indent_tokens(self) -> None:
        # Indentation never holds a newline.
        self.column += sum(map(len, self.indent_tokens))

    def add_token(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            segments = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def pop_trailing_newline(self) -> None:
        return None

    # These two run for every node of the file: keep them to a few operations.
    def before_codegen(self, node: cst.CSTNode) -> None:
        self._push(self.line << _HALF | self.column)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._pop()
        kind = type(node)
        if kind in _UNRECORDED:
            return
        # A syntactic position recorded inside the node's codegen wins (as in libcst).
        spans = self.spans
        key = id(node)
        if key not in spans:
            spans[key] = start << 2 * _HALF | self.line << _HALF | self.column
        if kind is _COMMENT:
            self.comments.append(node)

    def record_syntactic_position(self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
                                  end_node: cst.CSTNode | None = None) -> _PositionState:
        """libcst wraps a node's own codegen in `with state.record_syntactic_position(node)`;
        the state is its own context manager (a stack, no object per node)."""
        self._records.append((node, start_node, end_node, self.line << _HALF | self.column))
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> bool:
        node, start_node, end_node, start = self._records.pop()
        spans = self.spans
        if start_node is not None:
            start = spans[id(start_node)] >> 2 * _HALF
        end = spans[id(end_node)] & _END_MASK if end_node is not None else (
            self.line << _HALF | self.column)
        spans[id(node)] = start << 2 * _HALF | end
        return False


def node_positions(module: cst.Module) -> tuple[dict[int, int], list[cst.Comment]]:
    """The packed syntactic span of every node by `id(node)` (as `PositionProvider` defines
    spans; see `unpack_span`) and the comments. The ids stay valid while `module` is alive."""
    state = _PositionState(module)
    try:
        module._codegen(state)  # noqa: SLF001 - see the module docstring
        return state.spans, state.comments
    except (AttributeError, TypeError, KeyError):
        ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        spans = {id(node): _pack_span((r.start.line, r.start.column), (r.end.line, r.end.column))
                 for node, r in ranges.items()}
        return spans, [node for node in ranges if isinstance(node, cst.Comment)]


class SourceText:
    """One file's text and node spans: locations and source slices for any node."""

    __slots__ = ("path", "source", "spans", "_line_starts")

    def __init__(self, path: str, source: str, spans: dict[int, int]) -> None:
        self.path = path
        self.source = source
        self.spans = spans
        starts = [0]
        index = source.find("\n")
        while index != -1:
            starts.append(index + 1)
            index = source.find("\n", index + 1)
        self._line_starts = starts

    def line_of(self, node: cst.CSTNode) -> int | None:
        """The node's first line, or None when its position was never recorded."""
        return self.start(node)[0] if id(node) in self.spans else None

    def start(self, node: cst.CSTNode) -> Position:
        return _unpack_position(self.spans[id(node)] >> 2 * _HALF)

    def end(self, node: cst.CSTNode) -> Position:
        return _unpack_position(self.spans[id(node)] & _END_MASK)

    def location(self, node: cst.CSTNode) -> Location:
        (line, column), (end_line, end_column) = unpack_span(self.spans[id(node)])
        return Location(self.path, line, column + 1, end_line, end_column + 1)

    def keyword(self, node: cst.CSTNode, keyword: str) -> Location:
        """The leading keyword of a statement (`try`, `except`, `finally`)."""
        line, column = self.start(node)
        return Location(self.path, line, column + 1, line, column + 1 + len(keyword))

    def header(self, first: cst.CSTNode, last: cst.CSTNode) -> Location:
        """From the start of `first` to the end of `last`: a compound statement's header."""
        line, column = self.start(first)
        end_line, end_column = self.end(last)
        return Location(self.path, line, column + 1, end_line, end_column + 1)

    def text(self, node: cst.CSTNode, limit: int | None = TEXT_LIMIT) -> str:
        """The node's source as written (truncated to `limit` characters)."""
        (line, column), (end_line, end_column) = unpack_span(self.spans[id(node)])
        begin = self._line_starts[line - 1] + column
        end = self._line_starts[end_line - 1] + end_column
        if limit is not None:
            end = min(end, begin + limit)
        return self.source[begin:end]
