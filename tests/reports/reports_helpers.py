"""Shared set-up for report tests: audit a corpus app once, with a fixed clock."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document

REPO = Path(__file__).resolve().parents[2]
APPS = REPO / "corpus" / "apps"
EPOCH = "1790000000"                 # 2026-09-21T14:13:20Z
GENERATED = "2026-09-21T14:13:20Z"


@cache
def document_of(app: str) -> dict:
    return audit_document(run_audit(AuditRequest(root=APPS / app, jobs=1, cache_dir=None)))
