"""topo-audit/2: one inference edge per consumer, its origins listed on it; the graph, the
relations and the views still hold one link per origin, so a path from any origin is found."""

from __future__ import annotations

import textwrap
from pathlib import Path

import networkx as nx

from topo.analyzers.model import EdgeKind, SiteKind
from topo.audit.graph.build import build_graph
from topo.audit.graph.relations import shown_relations
from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports._index import DocumentIndex
from topo.reports.document import audit_document
from topo.reports.graph_view import graph_section
from topo.reports.paths import path_steps

# Two model outputs reach one executor's arguments; each also feeds a branch of its own.
APP = textwrap.dedent("""
    import stripe
    from openai import OpenAI
    llm = OpenAI()
    def main(text):
        first = llm.chat.completions.create(model="m", messages=[])
        second = llm.chat.completions.create(model="m", messages=[])
        a = first.choices[0].message.content
        b = second.choices[0].message.content
        if a == "yes" and b == "no":
            stripe.Refund.create(charge=a, amount=b)
    """)


def _audit(tmp_path: Path):
    (tmp_path / "app.py").write_text(APP)
    return run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None))


def _ids(result, kind: SiteKind) -> list[str]:
    return sorted(site.id for site in result.facts.sites if site.kind is kind)


def test_one_inference_edge_per_consumer_lists_its_origins_sorted(tmp_path: Path) -> None:
    result = _audit(tmp_path)
    origins = _ids(result, SiteKind.INFERENCE)
    [executor] = _ids(result, SiteKind.EXECUTOR)
    assert len(origins) == 2
    inference = [e for e in result.facts.edges if e.kind is EdgeKind.INFERENCE]
    into_executor = [e for e in inference if e.target == executor]
    assert len(into_executor) == 1, "one edge per origin x consumer again"
    [edge] = into_executor
    assert dict(edge.attrs) == {"origins": tuple(origins), "via": "arguments"}
    assert edge.source == origins[0]
    assert sorted(edge.pairs()) == [(origin, executor) for origin in origins]
    # every consumer appears once
    assert len({e.target for e in inference}) == len(inference)


def test_the_graph_links_every_origin_to_the_effect(tmp_path: Path) -> None:
    result = _audit(tmp_path)
    graph = build_graph(result.facts)
    [executor] = _ids(result, SiteKind.EXECUTOR)
    for origin in _ids(result, SiteKind.INFERENCE):
        assert nx.has_path(graph, origin, executor)
        kinds = [data["kind"] for data in graph.get_edge_data(origin, executor).values()]
        assert kinds == ["inference"]
    # the per-origin links are the listed edge, not extra structural relations
    assert not [r for r in shown_relations(graph, result.facts.edges) if r.kind == "inference"]


def test_the_document_writes_the_edge_once_and_the_views_find_each_origins_path(
        tmp_path: Path) -> None:
    result = _audit(tmp_path)
    document = audit_document(result)
    [executor] = _ids(result, SiteKind.EXECUTOR)
    origins = _ids(result, SiteKind.INFERENCE)
    edges = [e for e in document["edges"] if e["kind"] == "inference" and e["target"] == executor]
    assert [e["attrs"]["origins"] for e in edges] == [origins]
    graph = graph_section(DocumentIndex.of(document))
    for origin in origins:
        [step] = path_steps(graph, [origin, executor])
        assert step.edges, f"no drawn edge from {origin}"
        assert [graph["edges"][n]["kind"] for n in step.edges] == ["inference"]
