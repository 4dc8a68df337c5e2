"""The corpus apps and the code-authority checks of this family: where each one fires.

fastapi_fallback runs the model's refund in the `except` branch of its decision call (and its
decided refund records no outcome); the refund agent and the interrupt-gated mailer are clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.pipeline import AuditRequest, run_audit

FAMILY = ("UNSAFE-FALLBACK", "EVAL-LEAK", "MODEL-CONSENT", "DYNAMIC-DECISION-POINT",
          "RECORDING-GAP", "UNVALIDATED-TAG", "ADVISORY-ONLY-POLICY")
EXPECTED = {
    "fastapi_fallback": {("UNSAFE-FALLBACK", "service/api.py", 30),
                         ("RECORDING-GAP", "service/api.py", 33)},
    "memrail_refund": set(),
    "langgraph_interrupt": set(),
    "openai_threshold_refund": set(),
    "cross_file": set(),
    "conditional_atom": set(),
}


@pytest.mark.parametrize("app", sorted(EXPECTED))
def test_family_findings_on_corpus_apps(corpus: Path, app: str) -> None:
    result = run_audit(AuditRequest(root=corpus / "apps" / app, jobs=1, cache_dir=None))
    found = {(f.code.id, f.location.file, f.location.line) for f in result.findings
             if f.code.id in FAMILY}
    assert found == EXPECTED[app]
