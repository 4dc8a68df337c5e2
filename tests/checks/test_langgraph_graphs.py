"""LangGraph apps in the three shapes seed-style apps use (issue 14, acceptance 2), in Python
and TypeScript: no review, an `interrupt()` approval before the send, and an approval plus a
model that rewrites its stored instructions; and the twin whose interrupt only asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.graph.build import sites_of_kind
from topo.audit.graph.chains import reaching_chains
from topo.audit.pipeline import AuditRequest, run_audit
from topo.analyzers.model import SiteKind

CHECKS = Path(__file__).resolve().parents[2] / "corpus" / "checks"
SHAPES = {
    "UNGOVERNED-PATH/bad_langgraph_no_review": {"UNGOVERNED-PATH"},
    "UNGOVERNED-PATH/good_langgraph_interrupt_approval": set(),
    "SELF-MODIFYING-AUTHORITY/bad_langgraph_approval_rewrites_rules": {
        "SELF-MODIFYING-AUTHORITY"},
    "UNGOVERNED-PATH/bad_langgraph_interrupt_question": {"UNGOVERNED-PATH"},
    "UNGOVERNED-PATH/bad_langgraph_inbox_no_accept": {"UNGOVERNED-PATH"},
    "UNGOVERNED-PATH/good_langgraph_breakpoint": set(),     # Python and TypeScript
    "UNGOVERNED-PATH/good_langgraph_router_reads_answer": set(),
    "UNGOVERNED-PATH/bad_langgraph_router_ignores_answer": {"UNGOVERNED-PATH"},
    "UNGOVERNED-PATH/bad_langgraph_answer_decides_nothing": {"UNGOVERNED-PATH"},
    "UNGOVERNED-PATH/bad_langgraph_messages_tool_args": {"UNGOVERNED-PATH"},
    "HIDDEN-AUTHORITY/bad_langgraph_router": {"HIDDEN-AUTHORITY", "UNGOVERNED-PATH"},
    "HIDDEN-AUTHORITY/good_langgraph_router_reviewed": set(),
}
CASES = [(f"{shape}_{language}", codes) for shape, codes in SHAPES.items()
         for language in ("py", "ts") if (CHECKS / f"{shape}_{language}").is_dir()]


@pytest.mark.parametrize(("fixture", "codes"), CASES, ids=[c for c, _ in CASES])
def test_each_shape_gives_exactly_its_findings(fixture: str, codes: set[str]) -> None:
    result = run_audit(AuditRequest(root=CHECKS / fixture, jobs=1, cache_dir=None))
    assert sorted(finding.code.id for finding in result.findings) == sorted(codes)


def test_both_languages_have_the_acceptance_shapes() -> None:
    names = {fixture for fixture, _ in CASES}
    for shape in list(SHAPES)[:4]:
        assert {f"{shape}_py", f"{shape}_ts"} <= names


@pytest.mark.parametrize("language", ["py", "ts"])
def test_the_approved_send_is_governed_by_the_interrupt(language: str) -> None:
    """Not reported because the human's answer governs it, not because the model's draft
    stopped reaching it: the chain is influenced by the draft and enforced by the interrupt."""
    root = CHECKS / f"UNGOVERNED-PATH/good_langgraph_interrupt_approval_{language}"
    result = run_audit(AuditRequest(root=root, jobs=1, cache_dir=None))
    graph = result.graph
    reach = reaching_chains(graph, result.facts)
    gates = {site.id for site in sites_of_kind(graph, SiteKind.APPROVAL_GATE)}
    (executor,) = list(sites_of_kind(graph, SiteKind.EXECUTOR))
    (chain,) = reach.of(executor)
    assert chain.influenced
    assert set(chain.enforced_by) == gates and gates
