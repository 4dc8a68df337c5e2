"""The cross-file flow: call graph, label propagation, derived sites and role edges, joined into
the classified facts the audit reads (`facts.source_facts`)."""
