"""The authority graph: building it (`build`), and the queries every check and report shares
(`chains`: which call chains reach an executor and what governs them, answered once per run;
`reachability`: the per-EMU matrix; `relations`: the nodes and relations a report shows)."""

from topo.audit.graph.build import (KIND, SITE_KIND, EVIDENCE, INFERRED, ENFORCED, SITE,
                                    build_graph, sites_of_kind, enclosing_function, callers,
                                    event_node, emu_node, decision_point_node,
                                    inferred_decision_point_node, tool_node)
from topo.audit.graph.chains import (Chain, ChainLimits, Hop, Reach,
                                     call_index, executor_chains, reaching_chains)
from topo.audit.graph.relations import Node, Relation, shown_nodes, shown_relations

__all__ = ["KIND", "SITE_KIND", "EVIDENCE", "INFERRED", "ENFORCED", "SITE", "build_graph",
           "sites_of_kind", "enclosing_function", "callers", "event_node", "emu_node",
           "decision_point_node", "inferred_decision_point_node", "tool_node",
           "Chain", "ChainLimits", "Hop", "Reach", "reaching_chains", "executor_chains",
           "call_index", "Node", "Relation", "shown_nodes",
           "shown_relations"]
