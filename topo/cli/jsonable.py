"""Turning typed values into JSON values, at the serialization edge only."""

from __future__ import annotations

import dataclasses
import enum
from decimal import Decimal
from pathlib import PurePath

__all__ = ["to_jsonable"]


def to_jsonable(value: object) -> object:
    """Dataclasses become objects (spans and all), enums their values, Decimals numbers."""
    match value:
        case None | bool() | int() | str():
            return value
        case float():
            return value
        case Decimal():
            return int(value) if value == value.to_integral_value() else float(value)
        case enum.Enum():
            return value.value
        case PurePath():
            return value.as_posix()
        case dict():
            return {str(k): to_jsonable(v) for k, v in value.items()}
        case list() | tuple() | frozenset() | set():
            items = [to_jsonable(v) for v in value]
            return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
        case _ if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"cannot serialise {type(value).__name__}")
