"""The comparisons inside a condition, built from the Values already read for its operands.

`resp.confidence > 0.8`, `"approve" in text`, `x is None` are Comparisons as written; a bare
operand is `truthy`, `not x` is `falsy`; `a and b` / `a or b` list the comparisons of each
operand; `not (a == b)` lists `a != b` (negation flips each comparison it covers). Reading a
condition never records a fact twice: the walker reads the expression once (recording its calls)
and this module only looks the operand Values up.
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from topo.analyzers.ir import Comparison, Value, ValueKind
from topo.analyzers.python.spans import SourceText

__all__ = ["comparisons"]

_OPERATORS: dict[type, str] = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.GreaterThan: ">",
    cst.LessThanEqual: "<=", cst.GreaterThanEqual: ">=", cst.In: "in", cst.NotIn: "not in",
    cst.Is: "is", cst.IsNot: "is not",
}
_NEGATED = {
    "==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in",
    "not in": "in", "is": "is not", "is not": "is", "truthy": "falsy", "falsy": "truthy",
}


def comparisons(test: cst.BaseExpression, values: Mapping[int, Value],
                text: SourceText, negated: bool = False) -> tuple[Comparison, ...]:
    """The comparisons of condition `test` (whose operands' Values are in `values`)."""
    match test:
        case cst.BooleanOperation(left=left, right=right):
            return (comparisons(left, values, text, negated)
                    + comparisons(right, values, text, negated))
        case cst.UnaryOperation(operator=cst.Not(), expression=inner):
            if isinstance(inner, (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation)):
                return comparisons(inner, values, text, not negated)
            return (_comparison(_value(inner, values, text), "falsy", None, test, text,
                                negated),)
        case cst.Comparison(left=left, comparisons=targets):
            found = []
            previous = left
            for target in targets:
                operator = _OPERATORS.get(type(target.operator))
                if operator is not None:
                    found.append(_comparison(_value(previous, values, text), operator,
                                             _value(target.comparator, values, text), test,
                                             text, negated))
                previous = target.comparator
            return tuple(found)
    return (_comparison(_value(test, values, text), "truthy", None, test, text, negated),)


def _comparison(left: Value, operator: str, right: Value | None, node: cst.CSTNode,
                text: SourceText, negated: bool) -> Comparison:
    return Comparison(left, _NEGATED[operator] if negated else operator, right,
                      text.location(node))


def _value(node: cst.BaseExpression, values: Mapping[int, Value],
           text: SourceText) -> Value:
    found = values.get(id(node))
    return found if found is not None else Value(ValueKind.OTHER, text.text(node))
