"""Language-neutral helpers over IR access paths (`resp.choices[0].message.content`)."""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["last_key", "root_of", "segments"]

_SEGMENT = re.compile(r"[^.\[]+|\[[^\]]*\]")   # identifiers and [subscripts], in order
_RECEIVERS = frozenset({"self", "this", "cls"})


@lru_cache(maxsize=1 << 16)
def root_of(path: str) -> str:
    """The variable an access path is rooted in: `resp` for `resp.choices[0]`, and the first
    attribute for instance state (`self.client` for `self.client.chat`), which is as far as
    a per-function analysis can name it."""
    parts = segments(path)
    if not parts:
        return path
    if parts[0] in _RECEIVERS and len(parts) > 1 and not parts[1].startswith("["):
        return f"{parts[0]}.{parts[1]}"
    return parts[0]


def segments(path: str) -> list[str]:
    """`a.b[0].c` -> ['a', 'b', '[0]', 'c']."""
    return _SEGMENT.findall(path)


def last_key(path: str) -> str:
    """The name a path reads last, attribute or string key: `approved` for `row.approved`,
    `state["approved"]` and `approved`; "" for an empty path."""
    parts = segments(path)
    return parts[-1].strip("[]").strip("'\"") if parts else ""
