"""Python front-end: unreadable input becomes an Unknown; positions match libcst's own."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from topo.analyzers.python import parse_python
from topo.analyzers.python import expressions
from topo.analyzers.python.expressions import ExpressionReader
from topo.analyzers.python.spans import _UNRECORDED, node_positions, unpack_span

VARIED = '''\
"""Doc."""
import os  # trailing comment

@decorator(
    arg=1,
)
class A(B, metaclass=M):
    x: int = (1 +
              2)

    async def f(self, a, /, b=3, *c, d, **e) -> "R":
        # inside
        async with x as (y, z):
            await g(*a, **e)
        return [i async for i in h() if i] or {k: v for k, v in e.items()}


def h():
    s = f"{x!r:>{width}} and {{literal}}" "tail"
    match s:
        case {"a": 1, **rest} | [1, 2, *_]:
            pass
        case str() if s:
            pass
    try:
        pass
    except* ValueError:
        pass
    lambda q=1: q
    del s[0]
    global G
    return (yield)
'''


def _is_recorded(node: cst.CSTNode) -> bool:
    """Every node but whitespace and punctuation must have its span."""
    return type(node) not in _UNRECORDED


def test_syntax_error_is_a_parse_error_without_facts() -> None:
    ir = parse_python("app/bad.py", 'import os\nprint "hi"\n', "app.bad", strict=True)
    assert ir.parse_error is not None
    assert ir.parse_error.file == "app/bad.py"
    assert ir.parse_error.reason.startswith("syntax error: ")
    assert ir.parse_error.line == 2
    assert (ir.imports, ir.calls, ir.definitions, ir.lines) == ((), (), (), 2)


def test_one_unreadable_construct_becomes_an_unknown_in_production(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: ExpressionReader, node: cst.NamedExpr, text: str, context: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setitem(expressions._READERS, cst.NamedExpr, broken)
    source = "before()\nif (x := f()):\n    inside()\nafter()\n"
    ir = parse_python("app/m.py", source, "app.m")
    assert [(u.reason, u.line) for u in ir.unknowns] == [
        ("could not read If: RuntimeError: boom", 2)]
    assert {c.name for c in ir.calls} >= {"before", "after"}
    with pytest.raises(RuntimeError, match="boom"):
        parse_python("app/m.py", source, "app.m", strict=True)


def test_byte_order_mark_is_tolerated() -> None:
    ir = parse_python("app/m.py", "\ufeffrun()\n", "app.m", strict=True)
    assert [(c.name, c.location.line, c.location.column) for c in ir.calls] == [("run", 1, 1)]


def test_every_construct_of_a_varied_file_is_read_strictly() -> None:
    ir = parse_python("app/v.py", VARIED, "app.v", strict=True)
    assert ir.parse_error is None and ir.unknowns == ()
    assert {"decorator", "g", "h", "items"} <= {c.name for c in ir.calls}


def test_fast_positions_equal_libcst_position_provider() -> None:
    module = cst.parse_module(VARIED)
    spans, comments = node_positions(module)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    mismatches = [
        type(node).__name__ for node, code_range in expected.items()
        if not isinstance(node, cst.Module) and (id(node) in spans or _is_recorded(node))
        and unpack_span(spans[id(node)]) != ((code_range.start.line, code_range.start.column),
                                             (code_range.end.line, code_range.end.column))]
    assert mismatches == []
    assert [comment.value for comment in comments] == ["# trailing comment", "# inside"]
