"""`-f json`: the audit document as deterministic JSON (sorted keys, stable lists).

The text is what `json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False)` makes,
and can be had in pieces (`json_pieces`): the document of 100,000 EMUs is hundreds of
megabytes, and joining it into one string first would hold it (and its pieces) twice. The
standard encoder writes an indented document through a generator per nested value, which cost
more than the rest of writing the report; here the top two levels go piece by piece and each
entry below them is written in one pass into a list (`_write`), with the standard library's
own string escaper.
"""

from __future__ import annotations

from collections.abc import Iterator
from json.encoder import encode_basestring

from topo.reports.document import json_document

__all__ = ["render_json", "json_pieces"]

_INDENT = "  "        # `indent=2`
_STREAMED_LEVELS = 2  # the document and its lists, piece by piece; deeper, an entry at once


def render_json(document: dict) -> str:
    return "".join(json_pieces(document))


def json_pieces(document: dict) -> Iterator[str]:
    """The text `render_json` returns, in order, as many short strings."""
    yield from _pieces(json_document(document), 0)
    yield "\n"


def _pieces(value: object, level: int) -> Iterator[str]:
    if level >= _STREAMED_LEVELS or not isinstance(value, (list, tuple, dict)) or not value:
        out: list[str] = []
        _write(value, level, out)
        yield "".join(out)
        return
    inner = "\n" + _INDENT * (level + 1)
    if isinstance(value, dict):
        yield "{"
        for index, (key, item) in enumerate(sorted(value.items())):
            yield f"{',' if index else ''}{inner}{encode_basestring(_key(key))}: "
            yield from _pieces(item, level + 1)
        yield "\n" + _INDENT * level + "}"
    else:
        yield "["
        for index, item in enumerate(value):
            yield f"{',' if index else ''}{inner}"
            yield from _pieces(item, level + 1)
        yield "\n" + _INDENT * level + "]"


def _write(value: object, level: int, out: list[str]) -> None:
    """Append the JSON text of `value`, nested `level` deep, as `json.JSONEncoder` writes it
    (the same type tests, in the same order)."""
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, (list, tuple, dict)):
        _write_container(value, level, out)
    else:
        raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def _write_container(value: list | tuple | dict, level: int, out: list[str]) -> None:
    if not value:
        out.append("{}" if isinstance(value, dict) else "[]")
        return
    inner = "\n" + _INDENT * (level + 1)
    separator = inner
    if isinstance(value, dict):
        out.append("{")
        for key, item in sorted(value.items()):
            out.append(separator)
            separator = "," + inner
            out.append(encode_basestring(_key(key)))
            out.append(": ")
            _write(item, level + 1, out)
        out.append("\n" + _INDENT * level + "}")
    else:
        out.append("[")
        for item in value:
            out.append(separator)
            separator = "," + inner
            _write(item, level + 1, out)
        out.append("\n" + _INDENT * level + "]")


def _key(key: object) -> str:
    """A dict key as JSON names it (the standard encoder's coercions)."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return float.__repr__(value)
