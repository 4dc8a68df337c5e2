"""How the views join a finding's path: graph edges between its nodes, a two-edge hop through a
passing node, else the finding's own connector to the next node of another kind."""

from __future__ import annotations

from topo.reports.paths import path_links


def _graph(*edges: tuple[str, str]) -> dict:
    return {"edges": [{"source": s, "target": t, "kind": "inference"} for s, t in edges]}


KINDS = {"tool:a": "tool_registration", "tool:b": "tool_registration", "gate": "threshold",
         "fn": "function", "effect": "executor"}


def test_alternative_origins_lead_to_what_follows_them_not_to_each_other() -> None:
    graph = _graph(("tool:a", "effect"))
    links = path_links(graph, ["tool:a", "tool:b", "effect"], KINDS)
    assert links.edges == (0,)
    assert links.connectors == (("tool:b", "effect"),)       # not tool:b → tool:a
    assert links.via == ()


def test_a_passing_node_is_followed_only_when_hops_are_asked_for() -> None:
    graph = _graph(("gate", "fn"), ("fn", "effect"))
    hopped = path_links(graph, ["gate", "effect"], KINDS)
    assert (hopped.edges, hopped.via, hopped.connectors) == ((0, 1), ("fn",), ())
    direct = path_links(graph, ["gate", "effect"], KINDS, hops=False)
    assert (direct.edges, direct.via, direct.connectors) == ((), (), (("gate", "effect"),))


def test_same_kind_to_the_end_falls_back_to_the_next_node() -> None:
    links = path_links(_graph(), ["tool:a", "tool:b"], KINDS)
    assert links.connectors == (("tool:a", "tool:b"),)
