"""Project-level promises: the two-command quickstart, CI calling it, imports flowing one way."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_readme_quickstart_is_exactly_two_commands() -> None:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    assert block.group(1).split("\n")[:-1] == ["make demo", "make test"]


def test_ci_runs_make_test() -> None:
    lines = [line.strip() for line in (REPO / ".ci/run").read_text().splitlines()]
    assert "make test" in lines


def _project_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return {n for n in names if n.split(".")[0] in {"audit", "analyzers", "reports"}}


def test_model_imports_nothing_from_the_project() -> None:
    assert _project_imports(REPO / "audit/model.py") == set()


def test_dsl_depends_only_on_itself_and_model() -> None:
    for path in (REPO / "audit/dsl").glob("*.py"):
        for name in _project_imports(path):
            assert name.startswith("audit.dsl") or name == "audit.model", (path, name)


def test_nothing_outside_the_cli_imports_the_cli() -> None:
    for path in REPO.glob("**/*.py"):
        if ".venv" in path.parts or "cli" in path.parts or "tests" in path.parts:
            continue
        assert not any(n.startswith("audit.cli") for n in _project_imports(path)), path


def _test_module_name(path: Path) -> str:
    """The name pytest's default (prepend) import mode gives a test file."""
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts)


def test_test_module_names_are_unique() -> None:
    # Each test folder without __init__.py goes on sys.path: two such files with one basename
    # would shadow each other.
    names = [_test_module_name(p) for p in (REPO / "tests").rglob("test_*.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
