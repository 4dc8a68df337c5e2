"""Whole-report SARIF snapshots of two corpus apps (STYLE §5: shape, not bulk assertions).
The rules' documentation is checked against `code_doc` and then left out of the snapshot, so
that editing a code's doc does not drift it. Regenerate after an intended change and review
the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/gate/test_sarif_golden.py
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from topo.audit.docs import code_doc
from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document
from topo.reports.sarif_report import sarif_log
from tests.gate.gate_helpers import APPS

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("app", ["demo_support_agent", "memrail_refund"])
def test_sarif_matches_golden(app: str) -> None:
    result = run_audit(AuditRequest(root=APPS / app, jobs=1, cache_dir=None))
    # URIs start at the git work tree's top; pin them to the app, wherever the tests run.
    log = sarif_log(audit_document(replace(result, repository_path="")))
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        doc = code_doc(rule["id"])
        assert rule.pop("help") == {"text": doc, "markdown": doc}
        assert rule.pop("fullDescription")["text"] in doc
    text = json.dumps(log, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    expected = GOLDEN / app / "TOPOLOGY_STATE.sarif"
    if os.environ.get("UPDATE_GOLDEN"):
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(text, encoding="utf-8")
    assert expected.exists(), f"no golden file {expected}: run with UPDATE_GOLDEN=1"
    assert text == expected.read_text(encoding="utf-8"), \
        f"{app}/TOPOLOGY_STATE.sarif drifted; review and regenerate with UPDATE_GOLDEN=1"
