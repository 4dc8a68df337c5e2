"""The `topo fuzz` command as a library: reachability witnesses, boundary tables, before/after
diffs and arbitration among competing policies, over the trigger semantics of
`topo.audit.triggers` (atoms, probes, search, strategies), which the checks share.

Public surface; the modules behind it are free to change. Nothing outside this package imports
it (tests/test_layers.py).
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
