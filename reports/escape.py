"""Writing text that may carry bytes which are not UTF-8.

A file name that is not valid UTF-8 is carried inside topo as `os.fsdecode` gives it (each bad
byte a lone surrogate, U+DC80-U+DCFF), so that the file can still be opened. No report may hold
a lone surrogate: it cannot be encoded, so a report would be cut short. Every report therefore
writes such a byte as the four characters `\\xff`, and any other lone surrogate as `\\ud800`;
the document is escaped before it is rendered, so each format then quotes the backslash its
own way (JSON `\\\\xff`).
"""

from __future__ import annotations

import dataclasses
import re
from itertools import islice

__all__ = ["escape_document", "escape_facts", "escape_text"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_text(text: str) -> str:
    """`text` with each lone surrogate written as a `\\xNN` (or `\\uNNNN`) escape."""
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(_escape, text)


def escape_document(value: object) -> object:
    """A JSON-shaped value with every string (keys too) passed through `escape_text`; tuples
    become lists. A dict or list with nothing to escape is returned as it is, not copied: the
    document of a large repository is hundreds of megabytes, and would otherwise be built
    twice."""
    if isinstance(value, str):
        return escape_text(value)
    if isinstance(value, dict):
        copy: dict | None = None
        for index, (key, item) in enumerate(value.items()):
            new_key, new_item = escape_document(key), escape_document(item)
            if copy is None and (new_key is not key or new_item is not item):
                copy = dict(islice(value.items(), index))   # the unchanged ones before
            if copy is not None:
                copy[new_key] = new_item
        return value if copy is None else copy
    if isinstance(value, list):
        items: list | None = None
        for index, item in enumerate(value):
            new_item = escape_document(item)
            if items is None and new_item is not item:
                items = value[:index]
            if items is not None:
                items.append(new_item)
        return value if items is None else items
    if isinstance(value, tuple):
        return [escape_document(item) for item in value]
    return value


def escape_facts(value: object) -> object:
    """A typed fact (frozen dataclasses, tuples, dicts) with every string escaped and every
    container keeping its type, so the views' look-ups by id agree with the escaped JSON
    part of the document. An immutable fact with nothing to escape is returned as it is,
    not rebuilt (rebuilding every dataclass of a large repository's facts took a tenth of
    a second to change nothing)."""
    if isinstance(value, str):
        return escape_text(value)
    if isinstance(value, dict):
        return {escape_facts(key): escape_facts(item) for key, item in value.items()}
    if isinstance(value, list):
        return [escape_facts(item) for item in value]
    if isinstance(value, (tuple, frozenset)):
        items = [escape_facts(item) for item in value]
        unchanged = all(new is old for new, old in zip(items, value))
        return value if unchanged else type(value)(items)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {field.name: escape_facts(getattr(value, field.name))
                   for field in dataclasses.fields(value) if field.init}
        if type(value).__dataclass_params__.frozen and \
                all(new is getattr(value, name) for name, new in changes.items()):
            return value
        return dataclasses.replace(value, **changes)
    return value


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"
