"""The comparisons inside a condition, built from the Values already read for its operands.

Operators are spelt as in Python (ir.Comparison): `===` is `==`, `!==` is `!=`, `in` stays;
a bare operand is `truthy`, `!x` is `falsy`; `a && b`, `a || b` and `a ?? b` list the
comparisons of each operand; `!(a === b)` lists `a != b`. `x instanceof C` and `typeof x`
tests are truthiness tests of the whole expression. `ALLOWED.includes(x)` and `ALLOWED.has(x)`
(Array and Set membership, the language's spelling of Python's `x in ALLOWED`) are `x in
ALLOWED`. Nothing is read twice: the expression reader has already recorded every operand's
Value by node id.
"""

from __future__ import annotations

from collections.abc import Mapping

import tree_sitter

from topo.analyzers.ir import Comparison, Value, ValueKind
from topo.analyzers.typescript.spans import SourceText

__all__ = ["comparisons", "CONNECTIVES"]

_OPERATORS = {"===": "==", "==": "==", "!==": "!=", "!=": "!=", "<": "<", ">": ">",
              "<=": "<=", ">=": ">=", "in": "in"}
_NEGATED = {
    "==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in",
    "not in": "in", "truthy": "falsy", "falsy": "truthy",
}
CONNECTIVES = frozenset({"&&", "||", "??"})
_MEMBERSHIP_METHODS = frozenset({"includes", "has"})


def operator_of(node: tree_sitter.Node) -> str:
    found = node.child_by_field_name("operator")
    return found.type if found is not None else ""


def comparisons(test: tree_sitter.Node, values: Mapping[int, Value], text: SourceText,
                negated: bool = False) -> tuple[Comparison, ...]:
    """The comparisons of condition `test` (whose operands' Values are in `values`)."""
    while test.type == "parenthesized_expression" and test.named_children:
        test = test.named_children[0]
    if test.type == "binary_expression":
        operator = operator_of(test)
        left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
        if left is not None and right is not None:
            if operator in CONNECTIVES:
                return (comparisons(left, values, text, negated)
                        + comparisons(right, values, text, negated))
            if operator in _OPERATORS:
                return (_comparison(_value(left, values, text), _OPERATORS[operator],
                                    _value(right, values, text), test, text, negated),)
    membership = _membership(test, text)
    if membership is not None:
        collection, member = membership
        return (_comparison(_value(member, values, text), "in",
                            _value(collection, values, text), test, text, negated),)
    if test.type == "unary_expression" and operator_of(test) == "!":
        inner = test.child_by_field_name("argument")
        if inner is not None:
            bare = inner
            while bare.type == "parenthesized_expression" and bare.named_children:
                bare = bare.named_children[0]
            if bare.type in ("binary_expression", "unary_expression") and (
                    bare.type == "binary_expression" or operator_of(bare) == "!") or \
                    _membership(bare, text) is not None:
                return comparisons(bare, values, text, not negated)
            return (_comparison(_value(inner, values, text), "falsy", None, test, text,
                                negated),)
    return (_comparison(_value(test, values, text), "truthy", None, test, text, negated),)


def _membership(node: tree_sitter.Node, text: SourceText
                ) -> tuple[tree_sitter.Node, tree_sitter.Node] | None:
    """(collection, member) of `collection.includes(member)` / `.has(member)`, else None."""
    if node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or function.type != "member_expression" or arguments is None:
        return None
    method = function.child_by_field_name("property")
    collection = function.child_by_field_name("object")
    passed = [a for a in arguments.named_children if a.type != "comment"]
    if method is None or collection is None or text.text(method) not in _MEMBERSHIP_METHODS \
            or len(passed) != 1 or passed[0].type == "spread_element":
        return None
    return collection, passed[0]


def _comparison(left: Value, operator: str, right: Value | None, node: tree_sitter.Node,
                text: SourceText, negated: bool) -> Comparison:
    return Comparison(left, _NEGATED[operator] if negated else operator, right,
                      text.location(node))


def _value(node: tree_sitter.Node, values: Mapping[int, Value], text: SourceText) -> Value:
    found = values.get(node.id)
    if found is None and node.type == "parenthesized_expression" and node.named_children:
        return _value(node.named_children[0], values, text)
    return found if found is not None else Value(ValueKind.OTHER, text.text(node))
