"""Constant Values of JavaScript literals, read without evaluating anything.

Strings decode their escapes (`'\\n'`, `'\\u00e9'`, `'\\u{1F600}'`, `'\\x41'`); numbers accept
the forms JavaScript writes (`0x1F`, `0o7`, `0b1`, `1_000`, `.5`, `1e-3`, and BigInt `10n`);
`true`/`false` are BOOL; `null` and `undefined` are NONE. A template literal without holes is a
STRING (with holes it is FORMAT, read by the expression reader).
"""

from __future__ import annotations

from collections.abc import Iterable

import tree_sitter

from topo.analyzers.ir import Value, ValueKind
from topo.analyzers.typescript.spans import SourceText

__all__ = ["literal_value", "merged_reads", "number_literal", "string_value", "unescape"]

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v",
                   "0": "\0"}


def merged_reads(values: Iterable[Value], extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The sorted union of the access paths read by `values`."""
    reads = set(extra)
    for value in values:
        reads.update(value.reads)
    return tuple(sorted(reads))


def unescape(body: str) -> str:
    """The text a JavaScript string body denotes (its escapes decoded)."""
    if "\\" not in body:
        return body
    out: list[str] = []
    index, length = 0, len(body)
    while index < length:
        char = body[index]
        if char != "\\" or index + 1 == length:
            out.append(char)
            index += 1
            continue
        escaped = body[index + 1]
        index += 2
        if escaped in _SIMPLE_ESCAPES and not (escaped == "0" and index < length
                                               and body[index].isdigit()):
            out.append(_SIMPLE_ESCAPES[escaped])
        elif escaped == "x" and _is_hex(body[index:index + 2], 2):
            out.append(chr(int(body[index:index + 2], 16)))
            index += 2
        elif escaped == "u" and body[index:index + 1] == "{":
            close = body.find("}", index)
            digits = body[index + 1:close] if close != -1 else ""
            if digits and _is_hex(digits, len(digits)) and int(digits, 16) <= 0x10FFFF:
                out.append(chr(int(digits, 16)))
                index = close + 1
            else:
                out.append(escaped)
        elif escaped == "u" and _is_hex(body[index:index + 4], 4):
            out.append(chr(int(body[index:index + 4], 16)))
            index += 4
        elif escaped in "\r\n\u2028\u2029":
            if escaped == "\r" and body[index:index + 1] == "\n":
                index += 1     # a line continuation adds nothing
        else:
            out.append(escaped)
    return "".join(out)


def _is_hex(text: str, width: int) -> bool:
    return len(text) == width and all(c in "0123456789abcdefABCDEF" for c in text)


def string_value(node: tree_sitter.Node, text: SourceText) -> str | None:
    """The text of a `string` node (quotes removed, escapes decoded)."""
    if node.type != "string":
        return None
    raw = text.text(node, None)
    return unescape(raw[1:-1]) if len(raw) >= 2 else ""


def number_literal(written: str) -> int | float | None:
    """The number a numeric literal denotes, or None when it is not one."""
    digits = written.replace("_", "")
    if digits.endswith("n"):
        digits = digits[:-1]
    try:
        lowered = digits.lower()
        if lowered.startswith(("0x", "0o", "0b")):
            return int(digits, 0)
        if lowered.isdigit() and len(lowered) > 1 and lowered.startswith("0"):
            return int(digits, 8) if set(lowered) <= set("01234567") else int(digits)
        if lowered.isdigit():
            return int(digits)
        return float(digits)
    except ValueError:
        return None


def literal_value(node: tree_sitter.Node, source: SourceText) -> Value | None:
    """The Value of a literal node (string, number, bool, null/undefined), else None."""
    match node.type:
        case "string":
            return Value(ValueKind.STRING, source.text(node), literal=string_value(node, source))
        case "number":
            written = source.text(node)
            return Value(ValueKind.NUMBER, written, literal=number_literal(written))
        case "true" | "false":
            return Value(ValueKind.BOOL, node.type, literal=node.type == "true")
        case "null" | "undefined":
            return Value(ValueKind.NONE, node.type)
    return None
