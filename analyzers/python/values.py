"""Constant Values: literals read without side effects, and merging of reads."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterable

import libcst as cst

from topo.analyzers.ir import Value, ValueKind

__all__ = ["literal_value", "merged_reads", "number_literal", "string_literal"]


def merged_reads(values: Iterable[Value], extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The sorted union of the access paths read by `values`."""
    reads = set(extra)
    for value in values:
        reads.update(value.reads)
    return tuple(sorted(reads))


def string_literal(node: cst.SimpleString) -> str | None:
    """The text of a string literal (None for bytes). Invalid escapes stay silent."""
    value = node.value
    if "\\" not in value:
        # No escape: the text is the body between the quotes (fast path, no `literal_eval`).
        quote = min(index for index in (value.find('"'), value.find("'")) if index >= 0)
        if "b" in value[:quote].lower():
            return None
        width = 3 if value[quote:quote + 3] in ('"""', "'''") else 1
        return value[quote + width:len(value) - width]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluated = ast.literal_eval(value)
    return evaluated if isinstance(evaluated, str) else None


def number_literal(node: cst.Integer | cst.Float) -> int | float:
    """The number a literal denotes (`0x1F`, `1_000`, `1e-3`), without `literal_eval`."""
    digits = node.value.replace("_", "")
    return int(digits, 0) if type(node) is cst.Integer else float(digits)


def literal_value(node: cst.BaseExpression, text: str) -> Value | None:
    """The Value of a literal (string, number, bool, None), or None when `node` is not one."""
    kind = type(node)   # exact types: `isinstance` on libcst classes is slow
    if kind is cst.SimpleString:
        return Value(ValueKind.STRING, text, literal=string_literal(node))
    if kind is cst.Integer or kind is cst.Float:
        return Value(ValueKind.NUMBER, text, literal=number_literal(node))
    if kind is cst.Imaginary:
        return Value(ValueKind.NUMBER, text)
    if kind is cst.Name:
        if node.value in ("True", "False"):
            return Value(ValueKind.BOOL, text, literal=node.value == "True")
        if node.value == "None":
            return Value(ValueKind.NONE, text)
        return None
    if kind is cst.UnaryOperation and type(node.operator) is cst.Minus \
            and type(node.expression) in (cst.Integer, cst.Float):
        return Value(ValueKind.NUMBER, text, literal=-number_literal(node.expression))
    return None
