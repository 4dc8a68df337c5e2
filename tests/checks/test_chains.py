"""The graph's public chain query: which chains reach an executor and what governs them,
answered once per run and read by every check through `CheckContext.reach`."""

from __future__ import annotations

import ast
from pathlib import Path

from topo.audit.graph import chains as chain_module
from topo.audit.graph import executor_chains, reaching_chains, sites_of_kind
from topo.analyzers.model import SiteKind
from topo.audit.pipeline import AuditRequest, run_audit

REPO = Path(__file__).resolve().parents[2]


def _audit(app: str):
    return run_audit(AuditRequest(root=REPO / "corpus" / "apps" / app, jobs=1, cache_dir=None))


def test_a_model_threshold_chain_is_influenced_and_ungoverned() -> None:
    result = _audit("cross_file")
    reach = reaching_chains(result.graph, result.facts)
    [chain] = reach.of(result.graph.nodes["executor:billing/payments.py:7:5"]["site"])
    assert chain.entry == "function:billing.flow.handle_dispute"
    assert chain.origins == ("inference:billing/classifier.py:11:16",)
    assert chain.gates == ("threshold:billing/rules.py:7:12", "model_branch:billing/flow.py:10:8")
    assert chain.influenced and not chain.governed


def test_a_memrail_registered_tool_governs_its_chain() -> None:
    result = _audit("memrail_refund")
    [executor] = sites_of_kind(result.graph, SiteKind.EXECUTOR)
    [chain] = reaching_chains(result.graph, result.facts).of(executor)
    assert chain.enforced_by == ("tool_registration:refund_agent/tools.py:10:1",)
    assert chain.governed and not chain.influenced
    assert list(executor_chains(result.graph, result.facts, executor)) == [chain]


def test_the_query_is_answered_once_per_audit(monkeypatch) -> None:
    walked: list[str] = []
    real = chain_module._chains

    def counting(scope, executor):
        walked.append(executor.id)
        return real(scope, executor)
    monkeypatch.setattr(chain_module, "_chains", counting)
    result = _audit("openai_threshold_refund")
    executors = [s.id for s in sites_of_kind(result.graph, SiteKind.EXECUTOR)]
    assert executors and sorted(walked) == sorted(executors)
    assert {f.code.id for f in result.findings} >= {"UNGOVERNED-PATH", "HIDDEN-AUTHORITY"}


def test_the_graph_package_imports_no_check() -> None:
    for path in (REPO / "audit" / "graph").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [n for n in names if n.startswith("topo.audit.checks")], path.name
