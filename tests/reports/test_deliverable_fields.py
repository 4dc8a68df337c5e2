"""TOPOLOGY_STATE fields that must be read from the code (issue: "Deliverable correctness"),
on the twin apps `corpus/deliverable/fields_py` and `fields_ts`: each app holds the shapes the
audit must read (`flows`) beside the ones it must leave `unknown` (`unknowns`), so each field is
checked both ways, in Python and TypeScript."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from reports_helpers import GENERATED

from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document
from topo.reports.topology import topology_state

FIXTURES = Path(__file__).resolve().parents[2] / "corpus" / "deliverable"
# (app, file of the found shapes, file of the unknowns, the early exit's negation as written)
APPS = [("fields_py", "billing/flows.py", "billing/unknowns.py", "not (request.anonymous)"),
        ("fields_ts", "src/flows.ts", "src/unknowns.ts", "!(request.anonymous)")]
IDS = [app[0] for app in APPS]


@cache
def _state(app: str) -> dict:
    result = run_audit(AuditRequest(root=FIXTURES / app, jobs=1, cache_dir=None))
    return topology_state(audit_document(result), generated=GENERATED)


def _calls(app: str) -> dict[tuple[str, str], tuple[str, str]]:
    """(file, symbol) of each decision call → (decision point, memrail_project)."""
    return {(call["file"], call["symbol"]): (point["name"], call["memrail_project"])
            for point in _state(app)["decision_points"] for call in point.get("calls", ())}


def _symbol(app: str, name: str) -> str:
    return {"fields_ts": {"audit_refund": "auditRefund", "decide_at": "decideAt",
                          "wrap_gift": "wrapGift"}}.get(
        app, {}).get(name, name)


@pytest.mark.parametrize(("app", "flows", "unknowns", "negation"), APPS, ids=IDS)
def test_memrail_project_is_the_literal_project(app, flows, unknowns, negation) -> None:
    calls = _calls(app)
    assert calls[(flows, "refund")][1] == "billing"                    # the client's project
    assert calls[(flows, _symbol(app, "audit_refund"))][1] == "ledger"  # the call's own project
    # No literal project (the environment, or a non-literal) is not invented.
    assert calls[(unknowns, "reconcile")][1] == "unknown"
    assert calls[(unknowns, "settle")][1] == "unknown"


@pytest.mark.parametrize(("app", "flows", "unknowns", "negation"), APPS, ids=IDS)
def test_a_decision_point_held_in_a_constant_is_the_point(app, flows, unknowns,
                                                          negation) -> None:
    calls = _calls(app)
    assert calls[(flows, "checkout")][0] == "billing.checkout"             # module constant
    assert calls[(flows, "refund")][0] == "billing.refund"                 # imported constant
    assert calls[(flows, _symbol(app, "audit_refund"))][0] == "billing.audit"  # module.NAME
    assert calls[(flows, _symbol(app, "wrap_gift"))][0] == "billing.gift"  # Class.NAME, OBJ.key
    assert calls[(unknowns, _symbol(app, "decide_at"))][0] == "unknown"    # a parameter
    bound = {p["name"]: p["emus"] for p in _state(app)["decision_points"]}
    assert bound["billing.refund"] == ["billing.refund_small"]
    assert bound["billing.checkout"] == ["billing.gift_wrap"]


@pytest.mark.parametrize(("app", "flows", "unknowns", "negation"), APPS, ids=IDS)
def test_consequential_paths_count_every_model_shaped_chain(app, flows, unknowns,
                                                            negation) -> None:
    # Two model-invoked tools reach the one delete; the nightly job reaches it with no model.
    assert _state(app)["summary"]["consequential_paths"] == 2


@pytest.mark.parametrize(("app", "flows", "unknowns", "negation"), APPS, ids=IDS)
def test_presence_conditions_carry_their_polarity(app, flows, unknowns, negation) -> None:
    contracts = {c["decision_point"]: c["state_candidates"]
                 for c in _state(app)["atom_contracts"]}
    after_exit = contracts["billing.refund"]["customer.id"]
    assert (after_exit["presence"], after_exit["condition"]) == ("conditional", negation)
    inside = contracts["billing.checkout"]["gift.note"]
    assert (inside["presence"], inside["condition"]) == ("conditional", "cart.gift")
    assert contracts["billing.refund"]["refund.request_id"]["presence"] == "always"


@pytest.mark.parametrize(("app", "flows", "unknowns", "negation"), APPS, ids=IDS)
def test_event_producers_list_each_emit_once(app, flows, unknowns, negation) -> None:
    [flow] = _state(app)["event_producers"]
    places = [(p["file"], p["line"], p["kind"]) for p in flow["producers"]]
    # Two emits, each listed once: the event atom inside each emit is not a second producer.
    assert len(places) == len(set(places)) == 2
    assert {kind for _, _, kind in places} == {"event_emit"}
    assert [c["emu_key"] for c in flow["consumers"]] == ["billing.refund_small"]
