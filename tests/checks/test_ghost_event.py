"""GHOST-EVENT: negated event clauses without a producer, and when the audit may say so."""

from __future__ import annotations

import shutil
from pathlib import Path

from emu_repos import emitter, emu, findings

DOCS_GUARD = "NOT event.agent.sent.email IN 'P7D'"
DIRECTIVE = {"type": "context_directive", "directive": "Offer a follow-up email."}


def _ghosts(root: Path, trigger: str, files: dict[str, str], **kwargs) -> list:
    return findings(root, "GHOST-EVENT", files, [emu(trigger, action=DIRECTIVE, **kwargs)])


def test_the_docs_guard_without_any_emitter_is_a_ghost(tmp_path: Path) -> None:
    [found] = _ghosts(tmp_path, DOCS_GUARD, {"app.py": emitter(("agent.closed.ticket", ""))})
    assert found.emu_key == "billing.small_refund" and found.symbol == "billing.small_refund"
    assert (found.location.file, found.location.line) == ("emus/emus.jsonl", 1)
    assert "`event.agent.sent.email`" in found.message and "`agent.sent.email`" in found.message
    assert not found.inferred


def test_an_exact_emitter_clears_it(tmp_path: Path) -> None:
    assert _ghosts(tmp_path, DOCS_GUARD, {"app.py": emitter(("agent.sent.email", ""))}) == []


def test_a_reordered_emitter_is_drift_not_a_ghost(tmp_path: Path) -> None:
    assert _ghosts(tmp_path, DOCS_GUARD, {"app.py": emitter(("agent.email.sent", ""))}) == []


def test_count_forms_that_hold_at_zero_are_negative_guards(tmp_path: Path) -> None:
    files = {"app.py": emitter(("agent.closed.ticket", ""))}
    trigger = ("COUNT event.agent.sent.email IN 'P7D' < 2 AND "
               "COUNT event.agent.sent.email IN 'P7D' >= 1")
    [found] = _ghosts(tmp_path, trigger, files)   # one finding per event, not per clause
    assert "COUNT" in found.message


def test_a_positive_clause_is_not_a_ghost(tmp_path: Path) -> None:
    trigger = "COUNT event.agent.sent.email IN 'P7D' >= 1"
    assert _ghosts(tmp_path, trigger, {"app.py": emitter(("agent.closed.ticket", ""))}) == []


def test_a_project_prefix_is_ignored_when_comparing(tmp_path: Path) -> None:
    trigger = "NOT event.billing.agent.sent.email IN 'P7D'"
    assert _ghosts(tmp_path, trigger, {"app.py": emitter(("agent.sent.email", ""))}) == []


def test_an_emu_only_repository_proves_nothing(tmp_path: Path) -> None:
    assert _ghosts(tmp_path, DOCS_GUARD, {}) == []


def test_the_clean_policy_corpus_alone_has_no_ghosts(tmp_path: Path) -> None:
    clean = Path(__file__).resolve().parents[2] / "corpus" / "emus" / "clean" / "emus.jsonl"
    (tmp_path / "emus").mkdir()
    shutil.copy(clean, tmp_path / "emus" / "emus.jsonl")
    from topo.audit.pipeline import AuditRequest, run_audit
    result = run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None))
    assert result.emus and not [f for f in result.findings if f.code.id == "GHOST-EVENT"]


def test_a_builder_sent_through_a_variable_counts_as_a_producer(tmp_path: Path) -> None:
    code = ("from datetime import datetime, timezone\nfrom memrail import AsyncAMIClient\n"
            "from memrail.atoms import event\n\nclient = AsyncAMIClient()\n\n\n"
            "async def record():\n"
            "    sent = event('agent.sent.email', ts=datetime.now(timezone.utc))\n"
            "    await client.emit_event(sent)\n")
    assert _ghosts(tmp_path, DOCS_GUARD, {"app.py": code}) == []


def test_a_dynamic_emitter_makes_the_finding_inferred(tmp_path: Path) -> None:
    code = emitter(("agent.closed.ticket", "")) + (
        "\n\nasync def record_any(name):\n"
        "    await client.emit_event(event(name, ts=datetime.now(timezone.utc)))\n")
    [found] = _ghosts(tmp_path, DOCS_GUARD, {"app.py": code})
    assert found.inferred


def test_code_without_memrail_makes_the_finding_inferred(tmp_path: Path) -> None:
    [found] = _ghosts(tmp_path, DOCS_GUARD, {"app.py": "def handler(request):\n    return 1\n"})
    assert found.inferred


def test_an_unreadable_source_file_makes_the_finding_inferred(tmp_path: Path) -> None:
    files = {"app.py": emitter(("agent.closed.ticket", "")), "broken.py": "def broken(:\n"}
    [found] = _ghosts(tmp_path, DOCS_GUARD, files)
    assert found.inferred


def test_a_typescript_emitter_is_a_producer(tmp_path: Path) -> None:
    typescript = ('import { AMIClient, event } from "@memrail/sdk";\n'
                  'const client = new AMIClient();\n'
                  'export async function record() {\n'
                  '  await client.emitEvent(event("agent.sent.email", { ts: new Date() }));\n'
                  '}\n')
    files = {"app.py": emitter(("agent.closed.ticket", "")), "web/record.ts": typescript}
    assert _ghosts(tmp_path, DOCS_GUARD, files) == []


def test_memrail_code_no_pack_classifies_makes_the_finding_inferred(tmp_path: Path) -> None:
    # The file says Memrail through its import, but its calls go through a local wrapper the
    # rule packs cannot see into: a producer may hide there.
    typescript = ('import type { AMIClient } from "@memrail/sdk";\n'
                  'import { publish } from "./bus";\n'
                  'export async function record(client: AMIClient) {\n'
                  '  await publish(client, "agent.sent.email");\n'
                  '}\n')
    files = {"app.py": emitter(("agent.closed.ticket", "")), "web/record.ts": typescript,
             "web/bus.ts": "export async function publish(client: any, name: string) {}\n"}
    [found] = _ghosts(tmp_path, DOCS_GUARD, files)
    assert found.inferred
