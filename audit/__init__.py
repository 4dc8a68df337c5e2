"""The audit: policies, the authority graph, checks, suppressions and the gate, over the facts the
analyzers read."""
