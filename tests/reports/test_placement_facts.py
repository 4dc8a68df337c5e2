"""Lanes, projects and per-project counts are the pipeline's (`AuditResult.placement`,
audit/placement.py); the `graph`, `projects` and decision-point sections only show them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from reports_helpers import GENERATED

from topo.analyzers.model import Edge, EdgeKind, Location, Site, SiteKind
from topo.audit.graph.relations import Node, Relation
from topo.audit.pipeline import AuditRequest, run_audit
from topo.audit.placement import NodePlacement, Project, place_nodes, project_of
from topo.reports.document import PLACEMENT, audit_document
from topo.reports.html_report import html_from_state
from topo.reports.topology import topology_state

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
UNBOUND = CORPUS / "checks" / "INVOKE-GAP" / "bad_unbound_point"
REFUND = CORPUS / "apps" / "memrail_refund"
CALL = "decision_call:billing/flow.py:9:22"


def _result(root: Path):
    return run_audit(AuditRequest(root=root, jobs=1, cache_dir=None))


def test_the_pipeline_places_every_shown_node_in_a_lane_and_a_project() -> None:
    placement = _result(UNBOUND).placement
    placed = {spot.node: spot for spot in placement.nodes}
    assert placed[CALL] == NodePlacement(CALL, "authority", "billing", "enforced")
    # Fileless nodes join their neighbours' project; an EMU with none keeps its file's.
    assert placed["decision_point:billing.refund"].project == "billing"
    assert placed["emu:billing.small_refund"].project == "billing"
    assert placed["emu:billing.fraud_review"].project == "emus"
    assert placed["decision_point:billing.fraud"].project == "unknown"
    assert placed["tool:refund_payment"].lane == "execution"
    assert placement.projects == (
        Project("billing", 9, ("billing/flow.py", "billing/tools.py", "emus/emus.jsonl"),
                ("billing",)),
        Project("emus", 1, ("emus/emus.jsonl",), ()))


def _site(site_id: str, kind: SiteKind, file: str, line: int, **attrs) -> Site:
    return Site(site_id, kind, "code", "python", Location(file, line), "m.f",
                tuple(sorted(attrs.items())))


def test_placement_rules_on_a_hand_made_graph() -> None:
    gate = _site("gate", SiteKind.THRESHOLD, "svc/a.py", 5, enforced=False)
    effect = _site("effect", SiteKind.EXECUTOR, "svc/a.py", 3, role="recording")
    nodes = (Node("function:svc.a.run", "function", "svc/a.py", "svc.a.run", 1, False),
             Node("function:svc.a.tool", "function", "svc/a.py", "svc.a.tool", 9, False),
             Node("emu:k", "emu", "emus/e.jsonl", None, 1, False),     # before its point
             Node("decision_point:p", "decision_point", None, None, None, False))
    edges = (Edge("function:svc.a.run", "function:svc.a.tool", EdgeKind.EXECUTION),)
    relations = (Relation("function:svc.a.run", "gate", "contains", False),
                 Relation("function:svc.a.run", "effect", "contains", False),
                 Relation("emu:k", "decision_point:p", "binds", False),
                 Relation("decision_point:p", "gate", "binds", False))
    placement = place_nodes((gate, effect), nodes, edges, relations,
                            manifests=("svc/pyproject.toml",), root_project="repo")
    placed = {spot.node: (spot.lane, spot.project, spot.authority) for spot in placement.nodes}
    assert placed == {
        "gate": ("authority", "svc", "advisory"),
        "effect": ("recording", "svc", None),                 # the pack role wins
        "function:svc.a.run": ("recording", "svc", None),     # its first site's lane
        "function:svc.a.tool": ("execution", "svc", None),    # something executes it
        "emu:k": ("authority", "svc", None),                  # follows its decision point
        "decision_point:p": ("authority", "svc", None),       # its neighbour's project
    }
    assert [(p.name, p.nodes, p.files) for p in placement.projects] == [
        ("svc", 6, ("emus/e.jsonl", "svc/a.py"))]


def test_project_of_takes_the_nearest_manifest_else_the_top_directory() -> None:
    manifests = ("pyproject.toml", "apps/web/package.json")
    assert project_of("apps/web/src/x.ts", manifests, "repo") == "apps/web"
    assert project_of("lib/y.py", manifests, "repo") == "repo"
    assert project_of("lib/y.py", (), "repo") == "lib"
    assert project_of("top.py", (), "repo") == "(root)"
    assert project_of(None, manifests, "repo") == "unknown"


def test_the_views_show_the_placement_and_derive_none_of_their_own() -> None:
    document = audit_document(_result(REFUND))
    placement = document[PLACEMENT]
    call = "decision_call:refund_agent/agent.py:28:24"
    moved = tuple(dataclasses.replace(spot, lane="recording", project="payments",
                                      authority="advisory") if spot.node == call else spot
                  for spot in placement.nodes)
    project = Project("payments", 41, ("only/the/pipeline.py",), ("ledger",))
    document[PLACEMENT] = dataclasses.replace(placement, nodes=moved, projects=(project,))
    state = topology_state(document, generated=GENERATED)
    [node] = [n for n in state["graph"]["nodes"] if n["id"] == call]
    assert (node["lane"], node["project"], node["authority"]) == (
        "recording", "payments", "advisory")
    assert state["projects"] == [{"name": "payments", "nodes": 41,
                                  "files": ["only/the/pipeline.py"],
                                  "memrail_projects": ["ledger"]}]
    assert state["summary"]["projects"] == 1
    assert state["decision_points"][0]["calls"][0]["project"] == "payments"
    html = html_from_state(state)
    assert "project: payments" in html
    assert 'class="node k-decision_call lane-recording auth-advisory"' in html
