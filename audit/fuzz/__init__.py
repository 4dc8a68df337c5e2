"""Property-based exploration of triggers: Hypothesis strategies for trigger ASTs and contexts,
shared by the tests and `topo fuzz`."""
