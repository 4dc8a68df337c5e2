"""`-f json`: the audit document as deterministic JSON (sorted keys, stable lists).

The text can be had in pieces (`json_pieces`): the document of 100,000 EMUs is hundreds of
megabytes, and joining it into one string first would hold it (and its pieces) twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from topo.reports.document import json_document

__all__ = ["render_json", "json_pieces"]

_ENCODER = json.JSONEncoder(indent=2, sort_keys=True, ensure_ascii=False)


def render_json(document: dict) -> str:
    return "".join(json_pieces(document))


def json_pieces(document: dict) -> Iterator[str]:
    """The text `render_json` returns, in order, as many short strings."""
    yield from _ENCODER.iterencode(json_document(document))
    yield "\n"
