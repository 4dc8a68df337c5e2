"""`-f json` is written as a stream, byte for byte what `json.dumps` makes of the same
document, and the document is not copied to escape it (topo-audit/2, issue 12 item 4)."""

from __future__ import annotations

import io
import json

import pytest
from reports_helpers import document_of

from topo.reports.document import SCHEMA, json_document
from topo.reports.escape import escape_document
from topo.reports.formats import audit_format

GOLDEN_APPS = ("demo_support_agent", "memrail_refund")


class _Recorder(io.StringIO):
    """A text stream that remembers the size of each write."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, text: str) -> int:
        self.sizes.append(len(text))
        return super().write(text)


def _dumps(document: dict) -> str:
    return json.dumps(json_document(document), indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"


@pytest.mark.parametrize("app", GOLDEN_APPS)
def test_streamed_json_is_byte_identical_to_json_dumps(app: str) -> None:
    document = document_of(app)
    out = io.StringIO()
    audit_format("json").write(document, out)
    assert out.getvalue() == _dumps(document)
    assert json.loads(out.getvalue())["schema"] == SCHEMA == "topo-audit/2"


def test_a_large_document_is_written_in_many_bounded_pieces() -> None:
    document = dict(document_of("memrail_refund"))
    site = document["sites"][0]
    document["sites"] = [{**site, "id": f"{site['id']}#{n}"} for n in range(20_000)]
    out = _Recorder()
    audit_format("json").write(document, out)
    text = out.getvalue()
    assert text == _dumps(document)
    assert len(out.sizes) > 10, "the JSON went out as one string"
    assert max(out.sizes) < len(text) / 5


def test_escaping_copies_nothing_when_nothing_needs_escaping() -> None:
    document = {"sites": [{"id": "a", "attrs": {"k": ["x", 1]}}], "n": 3}
    assert escape_document(document) is document


def test_escaping_still_replaces_a_lone_surrogate_deep_inside() -> None:
    bad = "caf\udce9.py"
    document = {"a": [{"file": "ok.py"}, {"file": bad}], "b": {"c": "ok"}}
    escaped = escape_document(document)
    assert escaped == {"a": [{"file": "ok.py"}, {"file": "caf\\xe9.py"}], "b": {"c": "ok"}}
    assert escaped["b"] is document["b"]          # the untouched part is shared
    assert document["a"][1]["file"] == bad        # the input is left as it was
