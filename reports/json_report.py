"""`-f json`: the audit document as deterministic JSON (sorted keys, stable lists)."""

from __future__ import annotations

import json

from topo.reports.document import json_document

__all__ = ["render_json"]


def render_json(document: dict) -> str:
    return json.dumps(json_document(document), indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"
