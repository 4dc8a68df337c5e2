"""The fuzzer's documentation runs: docstring examples, the README's `topo fuzz` example, and
the package's import direction."""

from __future__ import annotations

import ast
import doctest
import importlib
import json
from pathlib import Path

from tests.fuzz.helpers import POLICIES, fuzz_json

REPO = Path(__file__).resolve().parents[2]
# Trigger semantics (shared with the checks) and the fuzz command itself.
MODULES = sorted(f"{package}.{p.stem}" for package in ("triggers", "fuzz")
                 for p in (REPO / "audit" / package).glob("*.py") if p.stem != "__init__")


def test_docstring_examples_run() -> None:
    attempted = 0
    for name in MODULES:
        result = doctest.testmod(importlib.import_module(f"topo.audit.{name}"))
        assert result.failed == 0, name
        attempted += result.attempted
    assert attempted >= 4


def test_the_readme_refund_example_is_what_topo_fuzz_prints() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### `topo fuzz EMUS", 1)[1].split("\n### ", 1)[0]
    (shown,) = [line for line in section.splitlines() if line.startswith('{"atom"')]
    _, document = fuzz_json(str(POLICIES / "refund_v2"), "--before", str(POLICIES / "refund_v1"))
    (row,) = document["diff_summary"]
    assert shown == json.dumps(row, sort_keys=True, separators=(",", ":"))


def test_the_fuzzer_reads_only_the_dsl_the_policy_layer_and_trigger_semantics() -> None:
    allowed = ("topo.audit.dsl", "topo.audit.policy", "topo.audit.fuzz", "topo.audit.triggers",
               "topo.audit.model", "topo.analyzers.model")
    for path in [*(REPO / "audit" / "fuzz").glob("*.py"), *(REPO / "audit" / "triggers").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] == "topo":
                assert node.module.startswith(allowed), (path.name, node.module)
