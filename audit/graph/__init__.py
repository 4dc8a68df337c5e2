"""The authority graph: building it (`build`), and the queries every check and report shares
(`reachability`: the per-EMU matrix)."""

from topo.audit.graph.build import (
    KIND, SITE_KIND, EVIDENCE, INFERRED, ENFORCED, SITE, build_graph, sites_of_kind,
    enclosing_function, callers, event_node, emu_node, decision_point_node,
    inferred_decision_point_node, tool_node)

__all__ = ["KIND", "SITE_KIND", "EVIDENCE", "INFERRED", "ENFORCED", "SITE", "build_graph", "sites_of_kind", "enclosing_function", "callers", "event_node", "emu_node", "decision_point_node", "inferred_decision_point_node", "tool_node"]
