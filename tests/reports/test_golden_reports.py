"""Whole-report snapshots of TOPOLOGY_STATE.yaml, .md and .html for two corpus apps (STYLE §5: shape,
not bulk assertions). Regenerate after an intended change and review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/reports
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from reports_helpers import EPOCH, document_of

from topo.reports.html_report import render_html
from topo.reports.markdown_report import render_markdown
from topo.reports.yaml_report import render_yaml

GOLDEN = Path(__file__).resolve().parent / "golden"
APPS = ("demo_support_agent", "memrail_refund")
RENDERERS = {"TOPOLOGY_STATE.yaml": render_yaml, "TOPOLOGY_STATE.md": render_markdown,
             "TOPOLOGY_STATE.html": render_html}


@pytest.mark.parametrize("name", sorted(RENDERERS))
@pytest.mark.parametrize("app", APPS)
def test_report_matches_golden(app: str, name: str, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    text = RENDERERS[name](document_of(app))
    expected = GOLDEN / app / name
    if os.environ.get("UPDATE_GOLDEN"):
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(text, encoding="utf-8")
    assert expected.exists(), f"no golden file {expected}: run with UPDATE_GOLDEN=1"
    assert text == expected.read_text(encoding="utf-8"), \
        f"{app}/{name} drifted; review and regenerate with UPDATE_GOLDEN=1"
