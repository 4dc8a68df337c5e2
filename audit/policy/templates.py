"""`{{a.b}}` placeholders inside EMU JSON values (action args, directive text, scope entries).

The docs write action templates as `{{customer.name}}` (state key `customer.name`); SDK 0.4.0
and older plugin examples write `{{state.customer.name}}`. Both mean the same state key, so the
key is normalised by dropping a leading `state.` (memrail-facts §3.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from topo.audit.policy.paths import JsonPath

__all__ = ["Placeholder", "placeholders", "placeholders_in_text", "has_template"]

# One placeholder: `{{`, optional spaces, a dotted name, optional spaces, `}}`.
_PLACEHOLDER = re.compile(r"\{\{\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
                          r"\s*\}\}")


@dataclass(frozen=True, slots=True)
class Placeholder:
    """One placeholder: where it is, how it was written, and the state key it reads."""

    path: JsonPath
    text: str
    key: str

    @property
    def is_legacy(self) -> bool:
        """Written `{{state.a.b}}`, the SDK 0.4.0 spelling."""
        return self.text.replace(" ", "").startswith("{{state.")


def placeholders_in_text(text: str, path: JsonPath = ()) -> Iterator[Placeholder]:
    """The placeholders in one string, left to right."""
    for match in _PLACEHOLDER.finditer(text):
        name = match.group("name")
        key = name[len("state."):] if name.startswith("state.") else name
        yield Placeholder(path, match.group(0), key)


def placeholders(value: object, path: JsonPath = ()) -> Iterator[Placeholder]:
    """Every placeholder in a JSON value, depth first, in key order as written."""
    match value:
        case str():
            yield from placeholders_in_text(value, path)
        case dict():
            for name, item in value.items():
                yield from placeholders(item, path + (name,))
        case list():
            for index, item in enumerate(value):
                yield from placeholders(item, path + (index,))


def has_template(text: str) -> bool:
    """True for any `{{…}}`, even one too malformed to name a key (scope entries)."""
    return "{{" in text or "}}" in text
