"""Tiny repositories for policy-check unit tests: some Python files and one `emus/emus.jsonl`.

`emu(trigger, …)` builds a schema-clean EMU around a trigger, so a test states only what it
is about; `findings(tmp_path, code, files, emus)` audits the repository and keeps one code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from topo.audit.model import Finding
from topo.audit.pipeline import AuditRequest, run_audit

__all__ = ["emu", "findings", "emitter", "TOOL"]

TOOL = {"type": "tool_call", "intent": "REFUND_PAYMENT",
        "tool": {"tool_id": "refund_payment", "version": "1.0.0",
                 "args": {"request_id": "{{refund.request_id}}"}}}


def emu(trigger: str, *, key: str = "billing.small_refund", action: dict | None = None,
        mode: str = "auto") -> dict[str, Any]:
    return {"emu_key": key, "decision_point": "billing.refund", "trigger": trigger,
            "action": action if action is not None else TOOL,
            "policy": {"mode": mode, "priority": 5, "cooldown": {"seconds": 3600, "gate": "ack"}},
            "expected_utility": 0.8, "confidence": 0.9, "state": "active"}


def emitter(*events: tuple[str, str]) -> str:
    """A Python module that emits each (name, attributes-source) event."""
    lines = ["from datetime import datetime, timezone", "from memrail import AsyncAMIClient",
             "from memrail.atoms import event", "",
             'client = AsyncAMIClient(workspace="production", project="billing")', "", "",
             "async def record(request_id, customer_id, attributes):"]
    for name, attributes in events:
        lines.append(f"    await client.emit_event(event({name!r}, ts=datetime.now(timezone.utc)"
                     f"{', attributes=' + attributes if attributes else ''}))")
    if not events:
        lines.append("    return None")
    return "\n".join(lines) + "\n"


def findings(root: Path, code: str, files: dict[str, str], emus: list[dict[str, Any]]
             ) -> list[Finding]:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "emus").mkdir(exist_ok=True)
    (root / "emus" / "emus.jsonl").write_text("".join(json.dumps(e) + "\n" for e in emus))
    result = run_audit(AuditRequest(root=root, jobs=1, cache_dir=None))
    return [f for f in result.findings if f.code.id == code]
