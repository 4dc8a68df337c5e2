"""The memory-system corpus apps (MemoRizz, MemexAI, Mubit, and Memrail + Mubit): where the
cross-system checks fire, both ways — each vulnerable app and none of its fixed twin."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.pipeline import AuditRequest, run_audit

FAMILY = ("GHOST-NEGATIVE", "AGENT-VERDICT", "UNVERIFIED-OUTCOME", "SELF-MODIFYING-AUTHORITY",
          "UNTRUSTED-IDENTITY", "DESTRUCTIVE-MEMORY-TOOL", "UNGOVERNED-PATH",
          "ADVISORY-ONLY-POLICY")
EXPECTED = {
    "mubit_refund_bad": {
        ("GHOST-NEGATIVE", "support/refunds.py", 19),
        ("AGENT-VERDICT", "support/refunds.py", 20),
        ("AGENT-VERDICT", "support/refunds.py", 38),
        ("UNVERIFIED-OUTCOME", "support/refunds.py", 30),
        ("UNVERIFIED-OUTCOME", "support/answer.ts", 22),
        ("UNGOVERNED-PATH", "support/answer.ts", 13),
        ("ADVISORY-ONLY-POLICY", "support/answer.ts", 13),
    },
    "mubit_refund_fixed": set(),
    "memexai_support_bad": {
        ("UNTRUSTED-IDENTITY", "app/support.py", 22),
        ("UNTRUSTED-IDENTITY", "app/turn.ts", 9),
        ("DESTRUCTIVE-MEMORY-TOOL", "app/support.py", 23),
        ("DESTRUCTIVE-MEMORY-TOOL", "app/turn.ts", 10),
        ("GHOST-NEGATIVE", "app/support.py", 32),
        ("UNGOVERNED-PATH", "app/support.py", 16),
    },
    "memexai_support_fixed": set(),
    "memorizz_billing_bad": {
        ("AGENT-VERDICT", "billing/agent.py", 34),
        ("UNTRUSTED-IDENTITY", "billing/agent.py", 34),
        ("DESTRUCTIVE-MEMORY-TOOL", "billing/agent.py", 17),
        ("SELF-MODIFYING-AUTHORITY", "billing/agent.py", 21),
        ("UNGOVERNED-PATH", "billing/agent.py", 12),
    },
    "memorizz_billing_fixed": set(),
    "mixed_memrail_mubit": set(),
}


@pytest.mark.parametrize("app", sorted(EXPECTED))
def test_memory_family_findings_on_corpus_apps(corpus: Path, app: str) -> None:
    result = run_audit(AuditRequest(root=corpus / "apps" / app, jobs=1, cache_dir=None))
    found = {(f.code.id, f.location.file, f.location.line) for f in result.findings
             if f.code.id in FAMILY}
    assert found == EXPECTED[app]
