"""`-f json` is written as a stream, byte for byte what `json.dumps` makes of the same
document, and the document is not copied to escape it (topo-audit/2, issue 12 item 4)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, strategies as st
from reports_helpers import document_of

from topo.reports.document import SCHEMA, json_document
from topo.reports.escape import escape_document
from topo.reports.formats import audit_format
from topo.reports.json_report import render_json

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


_SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | st.text()
            | st.sampled_from(["caf\udce9", "\u2028", "\x00", "\"\\"]))
# Keys of one type per dict: the standard encoder sorts them, and mixed types do not sort.
_KEYED = (st.dictionaries(st.integers(), _SCALARS, max_size=4)
          | st.dictionaries(st.floats(allow_nan=False), _SCALARS, max_size=4)
          | st.dictionaries(st.booleans(), _SCALARS, max_size=2)
          | st.dictionaries(st.none(), _SCALARS, max_size=1))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.lists(inner, max_size=4).map(tuple)
                       | st.dictionaries(st.text(), inner, max_size=4), max_leaves=30)


@given(st.dictionaries(st.text(), _VALUES, max_size=5),
       _KEYED)
def test_the_json_text_is_what_the_standard_encoder_writes(document: dict, keyed: dict) -> None:
    """Any JSON-shaped value, at any depth (the streamed top levels and the entries below),
    NaN and infinities, lone surrogates, tuples and non-string keys included."""
    document = {**document, "deep": [{"keyed": keyed, "value": document}]}
    expected = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert render_json(document) == expected
