"""The lint table stays honest: every lint module is registered, every code is known and
documented, and lints cannot emit codes they did not declare."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

from topo.audit import codes
from topo.audit.policy import lints
from topo.audit.policy.paths import dotted, overlaps, parse

REPO = Path(__file__).resolve().parents[2]
HEADINGS = ["## What it finds", "## Why it matters", "## Example", "## Use instead",
            "## How to fix", "## Limits", "## Options", "## References"]


def test_every_lint_module_is_registered() -> None:
    on_disk = {m.name for m in pkgutil.iter_modules(lints.__path__) if not m.name.startswith("_")}
    assert on_disk == {m.__name__.rsplit(".", 1)[1] for m in lints.MODULES}


def test_lint_modules_are_named_after_their_code() -> None:
    for module in lints.MODULES:
        name = module.__name__.rsplit(".", 1)[1]
        assert {lint.code.id for lint in module.LINTS} == {name.upper().replace("_", "-")}


def test_every_lint_has_a_unique_name_a_known_code_and_sound_reads() -> None:
    names = [lint.name for lint in lints.LINTS]
    assert len(names) == len(set(names))
    for lint in lints.LINTS:
        assert lint.code in codes.ALL
        assert lint.reads and all(parse(r) and "" not in parse(r) for r in lint.reads)


def test_every_policy_code_has_a_documentation_file_with_the_headings() -> None:
    for code in codes.ALL:
        text = (REPO / "audit/docs/codes" / f"{code.id}.md").read_text()
        assert text.startswith(f"# {code.id}: {code.title}\n")
        positions = [text.index(h + "\n") for h in HEADINGS]
        assert positions == sorted(positions), code.id


def test_paths_are_spelled_as_authors_write_them() -> None:
    assert dotted(("policy", "idempotency", "scope", 0)) == "policy.idempotency.scope[0]"
    assert dotted(()) == "the EMU"
    assert overlaps(("policy",), ("policy", "cooldown"))
    assert overlaps(("policy", "cooldown", "seconds"), ("policy", "cooldown"))
    assert not overlaps(("policy", "mode"), ("policy", "cooldown"))


def test_the_policy_layer_imports_only_model_codes_dsl_and_itself() -> None:
    allowed = ("topo.analyzers.model", "topo.analyzers.reading", "topo.audit.model",
               "topo.audit.codes", "topo.audit.dsl", "topo.audit.policy")
    for path in (REPO / "audit/policy").rglob("*.py"):
        for name in _project_imports(path):
            assert name.startswith(allowed), (path, name)


def _project_imports(path: Path) -> set[str]:
    """`from topo.audit import codes` counts as `topo.audit.codes`: a package import cannot hide."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.split(".")[0] == "topo"}
