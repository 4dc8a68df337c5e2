"""Each trigger is parsed once per audit: the loader parses it and the EMU carries the result.

The counter sits inside the parser (`parse_trigger` calls `tokenize` exactly once per call), so
it counts every parse whichever module imported `parse_trigger` and under whatever name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from topo.audit.dsl import parser
from topo.audit.pipeline import AuditRequest, run_audit
from topo.audit.policy import load_emus
from topo.reports.document import audit_document
from topo.reports.html_report import render_html
from topo.reports.markdown_report import render_markdown
from topo.reports.sarif_report import render_sarif
from topo.reports.yaml_report import render_yaml

from tests.policy.helpers import anatomy

APP = Path(__file__).resolve().parents[2] / "corpus" / "apps" / "demo_support_agent"


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    seen: list[str] = []
    real = parser.tokenize

    def counting(text: str):
        seen.append(text)
        return real(text)
    monkeypatch.setattr(parser, "tokenize", counting)
    return seen


def test_a_full_audit_and_every_report_parse_each_trigger_once(parses, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    result = run_audit(AuditRequest(root=APP, jobs=1, cache_dir=None))
    document = audit_document(result)
    for render in (render_yaml, render_markdown, render_html, render_sarif):
        render(document)
    triggers = sorted({emu.trigger for emu in result.emus if emu.trigger is not None})
    assert len(triggers) == 3
    assert sorted(parses) == triggers


def test_emus_sharing_a_trigger_text_share_one_parse(parses, tmp_path: Path) -> None:
    lines = [anatomy(emu_key=f"support.copy_{n}") for n in range(3)]
    (tmp_path / "emus.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines),
                                         encoding="utf-8")
    loaded = load_emus(tmp_path)
    assert len(loaded.emus) == 3 and all(emu.ast is not None for emu in loaded.emus)
    assert parses == [lines[0]["trigger"]]
    assert loaded.emus[0].dependencies and \
        loaded.emus[0].dependencies == loaded.emus[2].dependencies
