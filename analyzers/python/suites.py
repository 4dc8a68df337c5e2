"""Small structural helpers over statement suites, shared by the binding scan and the walker."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

__all__ = ["assigned_names", "exit_kind", "statements_of", "sub_expressions"]

Statement = cst.BaseStatement | cst.BaseSmallStatement

_EXITS: dict[type, str] = {
    cst.Return: "return", cst.Raise: "raise", cst.Continue: "continue", cst.Break: "break",
}


def statements_of(suite: cst.BaseSuite) -> Sequence[Statement]:
    """The statements of an indented block, or the small statements of `if x: a; b`."""
    return suite.body


def exit_kind(suite: cst.BaseSuite) -> str | None:
    """'return' | 'raise' | 'continue' | 'break' when the suite always ends by leaving."""
    body = suite.body
    if not body:
        return None
    last = body[-1]
    if isinstance(last, cst.SimpleStatementLine):
        if not last.body:
            return None
        last = last.body[-1]
    return _EXITS.get(type(last))


def assigned_names(target: cst.BaseExpression) -> list[cst.Name]:
    """The plain names bound by an assignment target (`a`, `a, (b, *c)`)."""
    match target:
        case cst.Name():
            return [target]
        case cst.Tuple(elements=elements) | cst.List(elements=elements):
            names: list[cst.Name] = []
            for element in elements:
                names.extend(assigned_names(element.value))
            return names
        case cst.StarredElement(value=value):
            return assigned_names(value)
    return []


def sub_expressions(node: cst.CSTNode) -> Iterator[cst.BaseExpression]:
    """The expressions directly inside a node that has no special rule (operators, `raise`)."""
    for child in node.children:
        if isinstance(child, cst.BaseExpression):
            yield child
        elif not isinstance(child, (cst.BaseParenthesizableWhitespace, cst.Comma,
                                    cst.LeftParen, cst.RightParen)):
            yield from sub_expressions(child)
