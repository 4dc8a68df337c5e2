"""The mixed app: a Mubit lesson reaches the model as observation, and only the Memrail
decision is enforced authority over the refund (issue 8, acceptance)."""

from __future__ import annotations

from pathlib import Path

from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document

APP = Path(__file__).resolve().parents[2] / "corpus" / "apps" / "mixed_memrail_mubit"


def test_lesson_observes_the_model_and_memrail_is_the_enforced_authority() -> None:
    document = audit_document(run_audit(AuditRequest(root=APP, jobs=1, cache_dir=None)))
    sites = {s["id"]: s for s in document["sites"]}
    edges = [(e["kind"], e["source"], e["target"], e.get("attrs", {})) for e in document["edges"]]
    lesson = next(i for i, s in sites.items() if s["kind"] == "memory_read"
                  and s["system"] == "mubit")
    model = next(i for i, s in sites.items() if s["kind"] == "inference")
    decision = next(i for i, s in sites.items() if s["kind"] == "decision_call")
    tool = next(i for i, s in sites.items() if s["kind"] == "tool_registration")
    assert any(k == "observation" and s == lesson and t == model for k, s, t, _ in edges)
    assert any(k == "authority" and s == decision and t == tool for k, s, t, _ in edges)
    authorities = {s for k, s, _, _ in edges if k == "authority"}
    assert {sites[s]["system"] for s in authorities if s in sites} == {"memrail"}
