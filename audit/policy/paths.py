"""JSON paths inside one EMU object: how messages spell them, and when two of them overlap.

A path is a tuple of object keys and array indexes, as jsonschema's `absolute_path` gives it.
Messages spell it the way users write it in docs: `policy.cooldown.seconds`,
`policy.exclusion_groups[0]`.
"""

from __future__ import annotations

import json
import re
from typing import TypeAlias

__all__ = ["JsonPath", "dotted", "parse", "overlaps"]

JsonPath: TypeAlias = tuple[str | int, ...]
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def dotted(path: JsonPath) -> str:
    """`("policy", "scope", 0)` → `policy.scope[0]`; the root is spelled `the EMU`. A key that
    is not a plain name is quoted and escaped (`policy["\\n"]`), so a message stays one line."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not _PLAIN_KEY.match(part):
            out += f"[{json.dumps(part)}]"
        else:
            out += f".{part}" if out else part
    return out or "the EMU"


def parse(text: str) -> JsonPath:
    """The inverse of `dotted` for the plain keys lints declare (`action.tool.args`)."""
    return tuple(text.split(".")) if text else ()


def overlaps(a: JsonPath, b: JsonPath) -> bool:
    """True when one path is a prefix of the other: a problem at one concerns the other."""
    shorter = min(len(a), len(b))
    return a[:shorter] == b[:shorter]
