"""Property-based exploration of triggers: Hypothesis strategies for trigger ASTs and contexts,
shared by the tests and `topo fuzz`, and the fuzzer itself (reachability witnesses, boundary
tables, before/after diffs, arbitration among competing policies).

Public surface; the modules behind it are free to change. `audit.fuzz.strategies` is imported
directly by tests.
"""

from topo.audit.triggers.contradiction import contradiction
from topo.audit.fuzz.export import export_tests, exported_test_source
from topo.audit.fuzz.report import SCHEMA, fuzz_document, render_json, render_markdown
from topo.audit.fuzz.run import (DEFAULT_NOW, EmuResult, FuzzConfig, FuzzReport, PolicyUnderTest,
                            fuzz_policies, parse_policies)
from topo.audit.triggers.search import DEFAULT_MAX_EXAMPLES, Budget

__all__ = [
    # running: run.py, search.py
    "fuzz_policies", "parse_policies", "FuzzConfig", "Budget", "FuzzReport", "EmuResult",
    "PolicyUnderTest", "DEFAULT_NOW", "DEFAULT_MAX_EXAMPLES",
    # output: report.py, export.py
    "render_markdown", "render_json", "fuzz_document", "SCHEMA", "export_tests",
    "exported_test_source",
    # proofs: contradiction.py
    "contradiction",
]
