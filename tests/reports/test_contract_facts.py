"""The decision-point sections and the facts about findings are the pipeline's
(`AuditResult.contracts`, `.finding_facts`, `.summary`); the TOPOLOGY_STATE view only shows
them, and `-f json` keeps the contract it had."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import networkx as nx
import pytest
from reports_helpers import GENERATED

from topo.analyzers.model import Location, Site, SiteKind
from topo.audit.contracts import Candidate, DecisionPoint, EventConsumer, decision_contracts
from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import CONTRACTS, FINDING_FACTS, audit_document
from topo.reports.json_report import render_json
from topo.reports.topology import topology_state

APP = Path(__file__).resolve().parents[2] / "corpus" / "apps" / "memrail_refund"
THRESHOLD = APP.parent / "openai_threshold_refund"
CALL = "decision_call:refund_agent/agent.py:28:24"


def _result():
    return run_audit(AuditRequest(root=APP, jobs=1, cache_dir=None))


def test_the_pipeline_computes_the_decision_contracts_as_typed_values() -> None:
    contracts = _result().contracts
    assert contracts.points == (DecisionPoint("support.refund", (CALL,), ("support.refund_small",),
                                              "invoked and bound"),)
    [contract] = contracts.atom_contracts
    assert contract.call.id == CALL
    assert Candidate("refund.request_id", "atom:refund_agent/agent.py:31:17") in contract.state
    # The event atom built inside the emit call is that emit's argument: one producer, no repeat.
    assert [need.producers for need in contract.events] == [
        ("event_emit:refund_agent/agent.py:41:23",)]
    assert contracts.call_projects == ((CALL, "support"),)
    [flow] = contracts.events
    assert flow.consumers == (EventConsumer("support.refund_small", "negative", "P30D"),)
    [action] = contracts.actions
    assert (action.key, action.status, action.executors) == (
        "tool_call.refund_payment", "connected", ("executor:refund_agent/tools.py:11:14",))


def test_the_view_shows_the_pipeline_facts_and_derives_none_of_its_own() -> None:
    document = audit_document(_result())
    contracts = document[CONTRACTS]
    [action] = contracts.actions
    missing = dataclasses.replace(action, status="missing")
    point = dataclasses.replace(contracts.points[0], status="a status only the pipeline knows")
    document[CONTRACTS] = dataclasses.replace(contracts, actions=(missing,), points=(point,))
    state = topology_state(document, generated=GENERATED)
    assert state["action_connectivity"]["tool_call.refund_payment"]["status"] == "missing"
    assert state["decision_points"][0]["status"] == "a status only the pipeline knows"


def test_json_keeps_the_contract_without_the_typed_facts() -> None:
    written = json.loads(render_json(audit_document(_result())))
    assert set(written) == {"schema", "repository_path", "summary", "sites", "edges", "emus",
                            "findings", "unknowns", "reachability", "scope", "nodes",
                            "relations", "coverage", "tools"}


def test_findings_facts_come_from_the_pipeline() -> None:
    result = run_audit(AuditRequest(root=THRESHOLD, jobs=1, cache_dir=None))
    [place] = result.finding_facts.hidden_authority
    hidden = next(f for f in result.findings if f.code.id == "HIDDEN-AUTHORITY")
    assert (place.file, place.line, place.findings) == (
        hidden.location.file, hidden.location.line, (hidden.fingerprint,))
    assert place.site == "threshold:support/bot.py:30:12"
    assert dict(result.summary.gaps) == {"invoke_gaps": 0, "atom_gaps": 0, "action_gaps": 0,
                                         "coherence_gaps": 0}
    assert result.summary.hidden_authority_sites == 1
    document = audit_document(result)
    facts = document[FINDING_FACTS]
    document[FINDING_FACTS] = dataclasses.replace(
        facts, points=tuple((fp, "refunds") for fp, _ in facts.points),
        hidden_authority=(dataclasses.replace(place, site=None),))
    state = topology_state(document, generated=GENERATED)
    assert {f["decision_point"] for f in state["prioritized_findings"]} == {"refunds"}
    assert [h["site"] for h in state["hidden_authority"]] == ["unknown"]


def _event_site(kind: SiteKind, line: int, symbol: str, name: str) -> Site:
    attrs = (("event_name", name),) if kind is SiteKind.EVENT_EMIT else \
        (("key", name), ("kind", "event"))
    return Site(id=f"{kind.value}:app.py:{line}:1", kind=kind, system="memrail",
                language="python", location=Location("app.py", line, 1), symbol=symbol,
                attrs=attrs)


def test_a_builder_is_a_producer_unless_its_function_emits_the_same_event() -> None:
    sites = (_event_site(SiteKind.EVENT_EMIT, 3, "app.record", "a.did.x"),
             _event_site(SiteKind.ATOM, 4, "app.record", "a.did.x"),       # the emit's argument
             _event_site(SiteKind.ATOM, 9, "app.build", "a.did.x"),        # built elsewhere
             _event_site(SiteKind.ATOM, 5, "app.record", "a.did.y"))       # another event
    flows = {f.event: f.producers for f in
             decision_contracts(sites, (), (), nx.MultiDiGraph(), (), ()).events}
    assert flows == {"a.did.x": ("event_emit:app.py:3:1", "atom:app.py:9:1"),
                     "a.did.y": ("atom:app.py:5:1",)}


HANDLER = '''from datetime import datetime, timezone

import stripe
from memrail import AMIClient
from memrail.atoms import event
from memrail.tools import ToolRegistry

client = AMIClient(project="billing")
registry = ToolRegistry()


@registry.tool(name="refund_payment", description="Refund", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"])
    client.emit_event(event("payment.completed.refund", ts=datetime.now(timezone.utc),
                            attributes={"charge_id": args["charge_id"]}), project="billing")
    return {"refund_id": refund.id}
'''
EMU = {"emu_key": "billing.refund", "decision_point": "billing.refund", "intent": "Refund",
       "trigger": "state.refund.request_id EXISTS",
       "action": {"type": "tool_call", "intent": "REFUND", "tool": {
           "tool_id": "refund_payment", "version": "1.0.0", "timeout_ms": 5000,
           "retry": {"policy": "fixed", "max_retries": 3}}},
       "policy": {"mode": "auto", "priority": 5, "idempotency": {
           "enabled": True, "boundary": "workspace", "roles": "auto",
           "scope": ["refund.request_id"]}},
       "expected_utility": 0.9, "confidence": 0.9, "state": "active"}


def test_an_action_lists_its_execution_terms(tmp_path: Path) -> None:
    """Seed 000 §6: retry policy, idempotency and timeout from the EMU, the outcome event from
    the handler (an emit after its effect)."""
    (tmp_path / "tools.py").write_text(HANDLER)
    (tmp_path / "emus").mkdir()
    (tmp_path / "emus" / "emus.jsonl").write_text(json.dumps(EMU) + "\n")
    result = run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None))
    [action] = result.contracts.actions
    assert (action.retry_policy, action.idempotency, action.timeout, action.outcome_events) == \
        ("fixed, at most 3 retries", "refund.request_id", "5000 ms", ("payment.completed.refund",))
    shown = topology_state(audit_document(result), generated=GENERATED)
    assert shown["action_connectivity"]["tool_call.refund_payment"]["outcome_event"] == \
        ["payment.completed.refund"]


ACTION_GAP = APP.parents[1] / "checks" / "ACTION-GAP"


def _shown_actions(root: Path) -> tuple[dict, dict]:
    result = run_audit(AuditRequest(root=root, jobs=1, cache_dir=None))
    shown = topology_state(audit_document(result), generated=GENERATED)["action_connectivity"]
    return {a.key: a for a in result.contracts.actions}, shown


def test_a_handler_that_swallows_its_errors_is_a_partial_connection() -> None:
    """Seed 000 §6: "Inspect real handlers, not only registrations": the handler is the
    function `register_tool(…, handler=…)` names, not `register_tools()` calling it."""
    actions, shown = _shown_actions(ACTION_GAP / "bad_swallowed_error")
    action = actions["tool_call.refund_payment"]
    assert action.status == "partially_connected"
    assert action.handler is not None and action.handler.key == "billing.tools.refund_payment"
    assert [r.split(":")[0] for r in action.incomplete] == \
        ["swallows the errors of `stripe.Refund.create`"]
    entry = shown["tool_call.refund_payment"]
    assert entry["executor"] == "billing/tools.py:refund_payment"
    assert entry["status"] == "partially_connected" and len(entry["incomplete_because"]) == 1
    # The EMU writes no timeout: the registration's; a timed-out call fails, retry `none`.
    assert (entry["timeout"], entry["timeout_outcome"]) == ("10000 ms (registration)",
                                                            "fails, not retried")


def test_complete_handlers_are_connected() -> None:
    actions, shown = _shown_actions(ACTION_GAP / "good_complete_handlers")
    assert {k: a.status for k, a in actions.items()} == {
        "route.billing.fraud_review": "connected", "tool_call.refund_payment": "connected"}
    assert all(not a.incomplete for a in actions.values())
    assert shown["tool_call.refund_payment"]["executor"] == "billing/tools.py:refund_payment"
    assert "incomplete_because" not in shown["route.billing.fraud_review"]


@pytest.mark.parametrize(("fixture", "key", "reason"), [
    ("bad_stub_handler", "tool_call.refund_payment", "a stub: it only raises"),
    ("bad_stub_handler_ts", "tool_call.refund_payment", "a stub: it only raises `Error`"),
    ("bad_swallowed_error_ts", "tool_call.refund_payment", "swallows the errors of"),
    ("bad_unconfigured_credential", "tool_call.refund_payment",
     "its credential is not configured: `create(…)` gets `api_key=STRIPE_SECRET_KEY = \"\"`"),
    ("bad_missing_destination", "route.billing.fraud_review",
     "its destination `fraud_review` is not in `REVIEW_QUEUES`"),
])
def test_partial_connections(fixture: str, key: str, reason: str) -> None:
    actions, shown = _shown_actions(ACTION_GAP / fixture)
    assert actions[key].status == "partially_connected"
    assert any(r.startswith(reason) for r in shown[key]["incomplete_because"]), \
        shown[key]["incomplete_because"]


def test_an_unregistered_tool_is_still_missing() -> None:
    actions, _ = _shown_actions(ACTION_GAP / "bad_unregistered_tool")
    assert actions["tool_call.refund_payment"].status == "missing"
    assert actions["tool_call.refund_payment"].incomplete == ()


def test_a_human_step_lists_the_timeout_and_its_outcome_the_emu_writes(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(
        "from memrail.tools import ToolRegistry\n\nregistry = ToolRegistry()\n\n\n"
        "@registry.on_decision_prompt\nasync def ask(prompt, options):\n"
        "    return await queue_review(prompt, options)\n")
    (tmp_path / "emus").mkdir()
    prompt = {**EMU, "action": {"type": "decision_prompt", "message": "Approve the refund?",
                                "options": [{"id": "approve", "label": "Approve"},
                                            {"id": "decline", "label": "Decline"}],
                                "metadata": {"timeout": "24h", "timeout_outcome": "decline"}}}
    (tmp_path / "emus" / "emus.jsonl").write_text(json.dumps(prompt) + "\n")
    _, shown = _shown_actions(tmp_path)
    entry = shown["decision_prompt.billing.refund"]
    assert (entry["timeout"], entry["timeout_outcome"], entry["status"]) == \
        ("24h", "decline", "connected")


def test_the_reachability_matrix_says_partial_for_a_partial_connection() -> None:
    result = run_audit(AuditRequest(root=ACTION_GAP / "bad_stub_handler", jobs=1,
                                    cache_dir=None))
    assert [(r.emu_key, r.action_connected) for r in result.reachability] == [
        ("billing.small_refund", "partial")]
    missing = run_audit(AuditRequest(root=ACTION_GAP / "bad_unregistered_tool", jobs=1,
                                     cache_dir=None))
    assert [r.action_connected for r in missing.reachability] == ["no"]


def test_a_dispatcher_branch_is_partial_and_says_why() -> None:
    actions, shown = _shown_actions(ACTION_GAP / "good_generic_tool_call_branch")
    entry = shown["tool_call.refund_payment"]
    assert entry["status"] == "partially_connected" and entry["findings"] == []
    assert entry["incomplete_because"][0].startswith("handled by a dispatcher branch")
