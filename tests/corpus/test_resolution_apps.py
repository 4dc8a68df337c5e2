"""The findings of the resolution twins (`resolve_python`, `resolve_ts`), both ways.

`expected_sites.txt` pins the sites; this pins what a reviewer sees: a decision point named only
through another module is invoked (no INVOKE-GAP), and model output read in one expression
gives HIDDEN-AUTHORITY and UNGOVERNED-PATH where the same output assigned first would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document

APPS = Path(__file__).resolve().parents[2] / "corpus" / "apps"


def _findings(app: str) -> set[tuple[str, str, int]]:
    document = audit_document(run_audit(AuditRequest(root=APPS / app, jobs=1, cache_dir=None)))
    return {(f["code"], f["file"], f["line"]) for f in document["findings"]}


@pytest.mark.parametrize(("app", "inline", "helper", "decoy"), [
    ("resolve_python", ("support/inline.py", 13, 14), ("support/inline.py", 18, 19),
     ("support/inline.py", 23, 24)),
    ("resolve_ts", ("src/inline.ts", 12, 13), ("src/inline.ts", 18, 19),
     ("src/inline.ts", 24, 25)),
])
def test_model_output_read_in_one_expression(app, inline, helper, decoy) -> None:
    findings = _findings(app)
    for file, gate, effect in (inline, helper):
        assert ("HIDDEN-AUTHORITY", file, gate) in findings
        assert ("UNGOVERNED-PATH", file, effect) in findings
    file, gate, effect = decoy
    assert ("HIDDEN-AUTHORITY", file, gate) not in findings
    assert ("UNGOVERNED-PATH", file, effect) not in findings


def test_callback_result_reaches_the_email_only_from_the_model() -> None:
    findings = _findings("resolve_python")
    assert ("UNGOVERNED-PATH", "support/replies.py", 13) in findings
    assert ("UNGOVERNED-PATH", "support/replies.py", 28) not in findings


def test_anthropic_tuple_and_kwargs_forms() -> None:
    findings = _findings("resolve_python")
    assert {("HIDDEN-AUTHORITY", "support/inline.py", 29),
            ("UNGOVERNED-PATH", "support/inline.py", 30),
            ("UNGOVERNED-PATH", "support/replies.py", 43),        # tuple-typed mailer
            ("UNGOVERNED-PATH", "support/replies.py", 54)} <= findings   # **kwargs
    assert ("UNGOVERNED-PATH", "support/replies.py", 47) not in findings


QUICKSTART = """
from memrail import AsyncAMIClient
from memrail.atoms import state


async def run(client, *, tier="enterprise"):
    return await client.decide_and_execute(
        decision_point="support.greeting",
        context=[state("customer.name", "Ada"), state("customer.tier", tier)],
        auto_ack=True,
    )


async def main():
    async with AsyncAMIClient(workspace="development", project="docs-demo") as client:
        return await run(CLIENT, tier="free")
"""


@pytest.mark.parametrize(("argument", "invoked"), [("client", True), ("None", False)])
def test_quickstart_shape_is_invoked(tmp_path: Path, argument: str, invoked: bool) -> None:
    """The docs' quickstart shape: the client passed to `run(client)`; its EMU is invoked.
    Passing something else leaves the decision point uninvoked (INVOKE-GAP)."""
    (tmp_path / "quickstart.py").write_text(QUICKSTART.replace("CLIENT", argument))
    (tmp_path / "emus").mkdir()
    emu = {"emu_key": "support.enterprise_greeting", "decision_point": "support.greeting",
           "intent": "greet", "trigger": "state.customer.tier == 'enterprise'",
           "action": {"type": "tool_call", "intent": "greet",
                      "tool": {"tool_id": "format_greeting", "version": "1.0.0",
                               "side_effect": False, "args": {}}},
           "policy": {"mode": "auto", "priority": 7}, "expected_utility": 0.8,
           "confidence": 0.95, "state": "shadow"}
    (tmp_path / "emus" / "emus.jsonl").write_text(json.dumps(emu) + "\n")
    document = audit_document(run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None)))
    codes = {f["code"] for f in document["findings"]}
    assert ("INVOKE-GAP" not in codes) is invoked


def test_workspace_package_import_carries_the_model_to_the_shell() -> None:
    findings = _findings("workspace_ts")
    assert ("UNGOVERNED-PATH", "packages/tools/src/index.ts", 4) in findings
    assert ("UNGOVERNED-PATH", "packages/tools/src/index.ts", 8) not in findings


def test_dispatch_through_an_alias_reaches_the_refund() -> None:
    assert ("UNGOVERNED-PATH", "agent.py", 15) in _findings("dispatch_alias")


def test_builder_chain_payload_is_what_the_write_consumes() -> None:
    findings = _findings("builder_chain")
    assert {("UNGOVERNED-PATH", "src/db.ts", 12), ("UNGOVERNED-PATH", "src/db.ts", 13)} <= findings
    assert not {("UNGOVERNED-PATH", "src/db.ts", 17), ("UNGOVERNED-PATH", "src/db.ts", 18)} & findings


def test_script_sibling_and_namespace_portion_imports() -> None:
    document = audit_document(run_audit(AuditRequest(root=APPS / "imports_python", jobs=1,
                                                     cache_dir=None)))
    calls = {(e["source"], e["target"]) for e in document["edges"] if e["kind"] == "calls"}
    # the twin script has no helpers beside it: its call is linked to nothing
    assert not any(source == "function:examples.lonely.app.reply" for source, _ in calls)
    findings = {(f["code"], f["file"], f["line"]) for f in document["findings"]}
    assert {("UNGOVERNED-PATH", "examples/chatbot/helpers.py", 5),
            ("UNGOVERNED-PATH", "svc/billing/app/tools/pay.py", 7)} <= findings
