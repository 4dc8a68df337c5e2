"""Constant Values: literals read without side effects, and merging of reads."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterable

import libcst as cst

from analyzers.ir import Value, ValueKind

__all__ = ["literal_value", "merged_reads", "string_literal"]


def merged_reads(values: Iterable[Value], extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The sorted union of the access paths read by `values`."""
    reads = set(extra)
    for value in values:
        reads.update(value.reads)
    return tuple(sorted(reads))


def string_literal(node: cst.SimpleString) -> str | None:
    """The text of a string literal (None for bytes). Invalid escapes stay silent."""
    if "\\" not in node.value:
        evaluated = node.evaluated_value
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evaluated = ast.literal_eval(node.value)
    return evaluated if isinstance(evaluated, str) else None


def literal_value(node: cst.BaseExpression, text: str) -> Value | None:
    """The Value of a literal (string, number, bool, None), or None when `node` is not one."""
    match node:
        case cst.SimpleString():
            return Value(ValueKind.STRING, text, literal=string_literal(node))
        case cst.Integer() | cst.Float():
            return Value(ValueKind.NUMBER, text, literal=node.evaluated_value)
        case cst.Imaginary():
            return Value(ValueKind.NUMBER, text)
        case cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer() | cst.Float()):
            return Value(ValueKind.NUMBER, text, literal=-node.expression.evaluated_value)
        case cst.Name(value="True" | "False"):
            return Value(ValueKind.BOOL, text, literal=node.value == "True")
        case cst.Name(value="None"):
            return Value(ValueKind.NONE, text)
    return None
