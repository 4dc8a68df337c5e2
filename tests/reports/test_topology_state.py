"""The TOPOLOGY_STATE view-model: the deliverable's sections read off the audit document."""

from __future__ import annotations

from pathlib import Path

import yaml
from reports_helpers import EPOCH, GENERATED, document_of

from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document
from topo.reports.markdown_report import render_markdown
from topo.reports.topology import MIGRATION_PHASES, generated_at, recommendation, topology_state
from topo.reports.yaml_report import render_yaml

TEMPLATE_KEYS = ["metadata", "summary", "projects", "decision_points", "hidden_authority",
                 "entry_points", "atom_contracts", "event_producers", "action_connectivity", "tools",
                 "outcomes", "reachability_matrix", "prioritized_findings", "unknowns", "out_of_scope",
                 "graph"]


def state_of(app: str) -> dict:
    return topology_state(document_of(app), generated=GENERATED)


def test_sections_follow_the_deliverable_template() -> None:
    state = state_of("demo_support_agent")
    assert list(state) == TEMPLATE_KEYS
    assert state["metadata"]["mode"] == "read-only"
    assert state["metadata"]["scope"] == "repository root (demo_support_agent)"
    summary = state["summary"]
    assert (summary["decision_points"], summary["action_gaps"],
            summary["hidden_authority_sites"]) == (2, 1, 1)


def test_generated_at_honours_source_date_epoch() -> None:
    assert generated_at({"SOURCE_DATE_EPOCH": EPOCH}) == GENERATED
    assert generated_at({}).endswith("Z")
    assert generated_at({"SOURCE_DATE_EPOCH": "not a number"}) != GENERATED


def test_yaml_is_byte_identical_across_runs(monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    app = Path(__file__).resolve().parents[2] / "corpus" / "apps" / "demo_support_agent"
    first, second = (render_yaml(audit_document(run_audit(AuditRequest(root=app, jobs=1))))
                     for _ in range(2))
    assert first == second
    assert yaml.safe_load(first)["metadata"]["generated_at"] == GENERATED
    assert "&id" not in first and "*id" not in first      # no YAML aliases


def test_findings_carry_id_evidence_recommendation_and_phase() -> None:
    findings = state_of("demo_support_agent")["prioritized_findings"]
    assert [f["id"] for f in findings] == [f"AUTH-{i:03d}" for i in range(1, len(findings) + 1)]
    ghost = next(f for f in findings if f["code"] == "GHOST-EVENT")
    assert ghost["evidence"] == {
        "file": "emus/emus.jsonl", "symbol": "support.follow_up_email", "line": 3,
        "behavior": ghost["evidence"]["behavior"]}
    assert ghost["decision_point"] == "support.after_resolution"
    assert ghost["recommendation"] == recommendation("GHOST-EVENT")
    assert ghost["recommendation"].startswith("Emit the event")
    fallback = next(f for f in findings if f["code"] == "UNSAFE-FALLBACK")
    assert fallback["decision_point"] == "support.refund"
    assert fallback["evidence"]["symbol"] == "handle_refund"
    for finding in findings:
        assert finding["migration_phase"] == MIGRATION_PHASES[finding["severity"]]


def test_recommendation_of_an_undocumented_code_is_unknown() -> None:
    assert recommendation("NO-SUCH-CODE") == "unknown"


def test_atom_contract_of_a_decision_point() -> None:
    contracts = state_of("memrail_refund")["atom_contracts"]
    [contract] = contracts
    assert contract["decision_point"] == "support.refund"
    assert contract["location"] == "refund_agent/agent.py:handle_refund"
    assert contract["state_candidates"]["refund.amount_cents"]["presence"] == "always"
    assert contract["tag_candidates"]["intent"]["source"] == "ml"
    assert contract["event_candidates"]["agent.issued.refund"] == {
        "producer": ["refund_agent/agent.py:handle_refund"],
        "attributes": ["customer_id", "request_id"]}


def test_conditional_atoms_and_ghost_events() -> None:
    state = state_of("demo_support_agent")
    follow_up = next(c for c in state["atom_contracts"]
                     if c["decision_point"] == "support.after_resolution")
    assert follow_up["event_candidates"]["agent.sent.email"]["producer"].startswith("none found")
    assert follow_up["event_candidates"]["agent.sent.email"]["attributes"] == "unknown"
    [event] = state["event_producers"]
    assert event["event"] == "agent.sent.email" and event["producers"] == []
    assert event["status"] == "consumed but never produced in the audited code"
    conditional = state_of("conditional_atom")["atom_contracts"][0]["state_candidates"]
    assert any(c["presence"] == "conditional" and c["condition"] for c in conditional.values())


def test_action_connectivity_statuses() -> None:
    actions = state_of("demo_support_agent")["action_connectivity"]
    assert actions["tool_call.escalate_ticket"]["status"] == "missing"
    assert actions["tool_call.escalate_ticket"]["schema_registered"] is False
    refund = actions["tool_call.refund_payment"]
    assert refund["status"] == "connected"
    assert refund["executor"] == "support_agent/tools.py:refund_payment"
    assert refund["projects"] == ["support"] and refund["version"] == "1.0.0"
    assert refund["effects"] == ["stripe.Refund.create (money)"]


def test_graph_places_sites_in_lanes_and_projects() -> None:
    graph = state_of("demo_support_agent")["graph"]
    lanes = {node["id"]: node["lane"] for node in graph["nodes"]}
    assert lanes["inference:support_agent/triage.py:11:16"] == "inference"
    assert lanes["threshold:support_agent/refunds.py:15:8"] == "authority"
    assert lanes["executor:support_agent/refunds.py:16:9"] == "execution"
    assert lanes["event:agent.sent.email"] == "recording"
    assert lanes["atom:support_agent/refunds.py:25:17"] == "observation"
    assert {node["project"] for node in graph["nodes"]} == {"support_agent"}
    ids = set(lanes)
    assert all(e["source"] in ids and e["target"] in ids for e in graph["edges"])
    inferred = [e for e in graph["edges"] if e["source"].startswith("threshold:")]
    assert inferred and all(e["inferred"] for e in inferred)


def test_unknowns_and_partial_results(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("import stripe\n\ndef f():\n    stripe.Refund.create()\n")
    (tmp_path / "broken.py").write_text("def f(:\n")
    state = topology_state(audit_document(run_audit(AuditRequest(root=tmp_path, jobs=1))),
                           generated=GENERATED)
    assert state["metadata"]["partial"] is True
    [unknown] = state["unknowns"]
    assert unknown["file"] == "broken.py" and "syntax" in unknown["reason"]
    markdown = render_markdown(audit_document(run_audit(AuditRequest(root=tmp_path, jobs=1))))
    assert "partial result" in markdown and "broken.py" in markdown


def test_out_of_scope_names_what_discovery_excluded() -> None:
    areas = {rule["area"]: rule for rule in state_of("memrail_refund")["out_of_scope"]}
    assert "tests/" in areas["tests and fixtures"]["patterns"]
    assert "vendor/" in areas["dependencies, build output and tool state"]["patterns"]
    assert "generated code" in areas


def _typed(app: str, point: str = "support.refund") -> dict[str, dict]:
    [contract] = [c for c in state_of(app)["atom_contracts"] if c["decision_point"] == point]
    return {**contract["state_candidates"], **contract["tag_candidates"]}


def _type_of(entry: dict) -> tuple:
    return entry["type"], entry.get("type_from"), tuple(entry.get("domain", ()))


def test_atom_types_from_schemas_annotations_and_validators() -> None:
    typed = _typed("typed_atoms_py")
    assert {key: _type_of(entry) for key, entry in typed.items()} == {
        "refund.amount_cents": ("int", "schema", ()),
        "customer.tier": ("str", "schema", ("gold", "silver")),
        "ticket.note": ("str", "schema", ()),
        "refund.requested_cents": ("int", "annotation", ()),
        "priority": ("str", "annotation", ("high", "low")),
        "channel": ("str", "annotation", ("chat", "email")),
        "refund.count": ("int", "validator", ()),
        "ticket.label": ("str", "validator", ()),
        "intent": ("str", "validator", ("question", "refund")),
        "ticket.extra": ("unknown", None, ()),       # Any
        "ticket.code": ("unknown", None, ()),        # int | str
        "ticket.raw": ("unknown", None, ()),         # no annotation
    }
    built = _typed("typed_atoms_py", "support.escalate")      # ticket = Ticket(**payload)
    assert {key: _type_of(entry) for key, entry in built.items()} == {
        "refund.amount_cents": ("int", "schema", ()),
        "priority": ("str", "schema", ("high", "low")),
    }


def test_atom_types_in_typescript() -> None:
    typed = _typed("typed_atoms_ts")
    assert {key: _type_of(entry) for key, entry in typed.items()} == {
        "refund.amount_cents": ("number", "schema", ()),
        "customer.tier": ("str", "schema", ("gold", "silver")),
        "refund.requested_cents": ("number", "annotation", ()),
        "priority": ("str", "annotation", ("high", "low")),
        "refund.count": ("number", "validator", ()),
        "intent": ("str", "validator", ("question", "refund")),
        "ticket.extra": ("unknown", None, ()),
        "ticket.anything": ("unknown", None, ()),
    }
    parsed = _typed("typed_atoms_ts", "support.refund_request")
    assert {key: _type_of(entry) for key, entry in parsed.items()} == {
        "refund.amount_cents": ("number", "schema", ()),     # z.number().int().positive()
        "refund.note": ("str", "schema", ()),
        "reason": ("str", "schema", ("damaged", "late")),    # z.enum([...])
        "refund.meta": ("unknown", None, ()),                # z.record: no type declared
    }
