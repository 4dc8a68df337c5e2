"""Dict-literal expansion into state atoms, with Memrail's skip rules.

`atoms_from_dict(data, prefix="customer")` and `StateObject("customer", data)` turn a dict into
one state atom per leaf: `customer.tier`, `customer.address.city`. The SDK silently drops some
leaves, and a dropped leaf is an atom the EMUs will never see, so the audit must drop exactly
the same ones (memrail-facts §5): `None` values, lists and other containers, keys starting with
`_`, keys not matching `^[a-z][a-z0-9_]*$`, keys deeper than 7 parts in total, and strings
longer than 256 characters. A leaf whose value is not a literal is kept with type `dynamic`
(the SDK keeps it unless it turns out to be None or a list at run time).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.ir import Call, Value, ValueKind
from topo.analyzers.packs._attrs import Dynamic, locate, value_type
from topo.analyzers.packs._facts import FileFacts
from topo.analyzers.packs._model import Expansion
from topo.analyzers.model import AttrValue

__all__ = ["ExpandedAtom", "expand_state_dict"]

_KEY = re.compile(r"[a-z][a-z0-9_]*")
_MAX_PARTS = 7
_MAX_STRING = 256


@dataclass(frozen=True, slots=True)
class ExpandedAtom:
    """One atom of an expansion: `suffix` makes its site id unique (None for the single
    dynamic site of a dict that cannot be read)."""

    suffix: str | None
    attrs: dict[str, AttrValue]


def expand_state_dict(expansion: Expansion, call: Call, facts: FileFacts
                      ) -> tuple[ExpandedAtom, ...]:
    prefix = locate(expansion.prefix, facts, call)
    data = locate(expansion.data, facts, call)
    if not (isinstance(prefix, Value) and prefix.kind is ValueKind.STRING):
        text = prefix.text if prefix is not None else ""
        return (ExpandedAtom(None, {"expanded": True, "prefix_literal": False,
                                    "prefix_text": text, "key_literal": False,
                                    "key_text": text}),)
    prefix_text = str(prefix.literal)
    if not (isinstance(data, Value) and data.kind is ValueKind.DICT):
        text = data.text if isinstance(data, (Value, Dynamic)) else ""
        return (ExpandedAtom(None, {"expanded": True, "prefix": prefix_text,
                                    "key_literal": False, "key_text": f"{prefix_text}.*",
                                    "data_text": text}),)
    return tuple(_leaves(data, prefix_text.split("."), prefix_text))


def _leaves(data: Value, parts: list[str], prefix: str) -> Iterator[ExpandedAtom]:
    for key, item in data.entries:
        if key is None:
            # `**other` inside the literal: its keys are unknown, the prefix is not.
            unknown = ".".join(parts) + ".*"
            yield ExpandedAtom(unknown, {"expanded": True, "prefix": prefix,
                                         "key_literal": False, "key_text": unknown,
                                         "data_text": item.text})
            continue
        if key.startswith("_") or not _KEY.fullmatch(key) or len(parts) + 1 > _MAX_PARTS:
            continue
        if item.kind is ValueKind.DICT:
            yield from _leaves(item, [*parts, key], prefix)
        elif _is_kept(item):
            full = ".".join([*parts, key])
            yield ExpandedAtom(full, {"expanded": True, "prefix": prefix, "key": full,
                                      "value_type": value_type(item)})


def _is_kept(item: Value) -> bool:
    if item.kind in (ValueKind.NONE, ValueKind.LIST, ValueKind.LAMBDA):
        return False
    if item.kind is ValueKind.STRING:
        return len(str(item.literal)) <= _MAX_STRING
    return True
