"""The house's floor plan, enforced: analyzers → audit → reports → CLI, no arrow back.

Every project module is read with `ast` (never imported) and each of its imports resolved to a
project module. A module may import its own floor and the floors below it; `topo` itself (the
version) is below every floor. The checks and the rest of the audit never import the `topo fuzz`
command's package, and no two modules import each other, directly or around a circle.
"""

from __future__ import annotations

import ast
import functools
import tomllib
from pathlib import Path

import networkx as nx

REPO = Path(__file__).resolve().parent.parent
# Where each installed package lives in the repository (pyproject's package-dir).
FOLDERS = {"topo.analyzers": "analyzers", "topo.audit": "audit", "topo.reports": "reports",
           "topo.cli": "topo/cli", "topo": "topo"}
FLOORS = ("topo.analyzers", "topo.audit", "topo.reports", "topo.cli")


def project_modules(repo: Path) -> dict[str, Path]:
    """Dotted module name → file, for every module of the installed `topo` namespace."""
    modules: dict[str, Path] = {}
    for package, folder in FOLDERS.items():
        base = repo / folder
        for path in base.rglob("*.py") if package != "topo" else [base / "__init__.py"]:
            if not path.exists():
                continue
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports, at any depth of its body (a late import in a
    function is still an arrow). `from pkg import sub` names the submodule when there is one."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def floor_of(module: str) -> int:
    for index, floor in enumerate(FLOORS):
        if module == floor or module.startswith(floor + "."):
            return index
    return -1   # `topo` itself


def import_graph(repo: Path) -> nx.DiGraph:
    modules = project_modules(repo)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        graph.add_edges_from((name, target) for target in imports_of(name, path, modules))
    return graph


def back_arrows(graph: nx.DiGraph) -> list[tuple[str, str]]:
    return sorted((a, b) for a, b in graph.edges if floor_of(b) > floor_of(a))


def fuzz_command_imports(graph: nx.DiGraph) -> list[tuple[str, str]]:
    """The fuzz command's package is a command: the rest of the audit (checks above all) takes
    trigger semantics from `topo.audit.triggers`, never from it."""
    def in_fuzz(module: str) -> bool:
        return module == "topo.audit.fuzz" or module.startswith("topo.audit.fuzz.")
    return sorted((a, b) for a, b in graph.edges
                  if in_fuzz(b) and not in_fuzz(a) and floor_of(a) <= floor_of("topo.audit"))


def import_circles(graph: nx.DiGraph) -> list[list[str]]:
    """Module circles; a package facade re-exporting its own submodules is not one (Python
    imports the package first by construction), so arrows from a package into its own
    submodules are left out."""
    arrows = nx.DiGraph((a, b) for a, b in graph.edges if not b.startswith(a + "."))
    return sorted(sorted(c) for c in nx.simple_cycles(arrows))


@functools.cache
def repo_graph() -> nx.DiGraph:
    """The repository's import graph, read once for all the tests below (it is only read)."""
    return import_graph(REPO)


def test_no_back_arrow_between_floors() -> None:
    assert back_arrows(repo_graph()) == []


def test_nothing_outside_the_fuzz_command_imports_it() -> None:
    assert fuzz_command_imports(repo_graph()) == []


def test_no_import_circle() -> None:
    assert import_circles(repo_graph()) == []


def test_the_vocabulary_imports_nothing_from_the_project() -> None:
    graph = repo_graph()
    assert set(graph.successors("topo.analyzers.model")) == set()
    assert set(graph.successors("topo.audit.model")) == {"topo.analyzers.model"}


def test_the_dsl_depends_only_on_itself_and_the_vocabulary() -> None:
    graph = repo_graph()
    for module in graph:
        if module.startswith("topo.audit.dsl"):
            for target in graph.successors(module):
                assert target.startswith("topo.audit.dsl") or target.endswith(".model"), \
                    (module, target)


def test_the_checker_sees_a_deliberate_back_arrow(tmp_path: Path) -> None:
    """A copy of a few real modules plus one added upward import: every rule must object."""
    for package, folder in FOLDERS.items():
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text('"""x"""\n')
    (tmp_path / "audit/fuzz").mkdir()
    (tmp_path / "audit/fuzz/__init__.py").write_text("")
    (tmp_path / "audit/fuzz/run.py").write_text("from topo.audit.checks import x\n")
    (tmp_path / "audit/checks.py").write_text("from topo.audit.fuzz.run import y\n")
    (tmp_path / "analyzers/model.py").write_text("from topo.reports import render\n")
    (tmp_path / "reports/render.py").write_text(
        "def late():\n    from topo.cli import main\n")
    graph = import_graph(tmp_path)
    assert back_arrows(graph) == [("topo.analyzers.model", "topo.reports.render"),
                                  ("topo.reports.render", "topo.cli")]
    assert fuzz_command_imports(graph) == [("topo.audit.checks", "topo.audit.fuzz.run")]
    assert import_circles(graph) == [["topo.audit.checks", "topo.audit.fuzz.run"]]


def test_every_package_is_installed() -> None:
    """pyproject lists the packages (setuptools' `find` cannot apply the folder mapping), so a
    new folder must be added there; this is what catches a forgotten one."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["tool"]["setuptools"]["package-dir"] == {
        package: folder for package, folder in FOLDERS.items() if package != "topo.cli"}
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    packages = {name for name, path in project_modules(REPO).items() if path.name == "__init__.py"}
    assert listed == packages
