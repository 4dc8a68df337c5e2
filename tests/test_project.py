"""Project-level promises: the two-command quickstart, CI calling it, unique test names
(the floors of the house: `test_layers.py`)."""

from __future__ import annotations

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
