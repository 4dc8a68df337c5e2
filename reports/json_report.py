"""`-f json`: the audit document as deterministic JSON (sorted keys, stable lists)."""

from __future__ import annotations

import json

__all__ = ["render_json"]


def render_json(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
