"""Reading golden check fixtures: `corpus/checks/<CODE>/{bad,good}_<name>/`.

Each fixture directory is audited as a repository. Expectations:
- in source files, on the line where a finding's primary location starts:
  `# EXPECT: CODE[, CODE]` (or `// EXPECT:`), `# EXPECT-NOT: CODE`, `# TODO-EXPECT: CODE`
  (a known false negative: recorded, never failing); likewise in config files (`.env*`,
  `*.yml`, and JSON, whose reader accepts `//` comments);
- in a notebook's code cells (`.ipynb`), likewise, on the line of the cells' joined script
  (the line a notebook finding reports; `topo.analyzers.notebooks`);
- in `expected.txt`, for findings keyed by EMU: `CODE emu_key` or `NOT CODE emu_key`.
Every finding of a fixture must be expected: an unexpected finding fails as surely as a missing
one, so the good twin proves the absence of false positives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from topo.analyzers.notebooks import NOTEBOOK_SUFFIX, notebook_script

CHECKS = Path(__file__).resolve().parents[2] / "corpus" / "checks"
SOURCE_SUFFIXES = (".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs")
CONFIG_SUFFIXES = (".yml", ".yaml", ".json")
# One strict pattern: the marker, a colon, then comma-separated codes.
MARKER = re.compile(r"(?:#|//)\s*(?P<kind>EXPECT-NOT|TODO-EXPECT|EXPECT):\s*"
                    r"(?P<codes>[A-Z][A-Z-]*(?:\s*,\s*[A-Z][A-Z-]*)*)")


@dataclass
class Expectations:
    lines: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    not_lines: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    todo: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    emus: set[tuple[str, str]] = field(default_factory=set)
    not_emus: set[tuple[str, str]] = field(default_factory=set)

    def codes(self) -> set[str]:
        found = set().union(*self.lines.values(), *self.not_lines.values(), *self.todo.values())
        return found | {c for c, _ in self.emus | self.not_emus}


def fixture_dirs() -> list[Path]:
    return sorted(p for p in CHECKS.glob("*/*") if p.is_dir() and
                  p.name.startswith(("bad_", "good_")))


def read_expectations(directory: Path) -> Expectations:
    found = Expectations()
    for path in sorted(directory.rglob("*")):
        marked = path.suffix in SOURCE_SUFFIXES + CONFIG_SUFFIXES + (NOTEBOOK_SUFFIX,) \
            or path.name == ".env" or path.name.startswith(".env.")
        if not marked or not path.is_file():
            continue
        relative = path.relative_to(directory).as_posix()
        text = path.read_text(encoding="utf-8")
        if path.suffix == NOTEBOOK_SUFFIX:
            text = notebook_script(text).source
        for number, line in enumerate(text.splitlines(), 1):
            for match in MARKER.finditer(line):
                codes = {c.strip() for c in match["codes"].split(",")}
                table = {"EXPECT": found.lines, "EXPECT-NOT": found.not_lines,
                         "TODO-EXPECT": found.todo}[match["kind"]]
                table.setdefault((relative, number), set()).update(codes)
    expected = directory / "expected.txt"
    if expected.exists():
        for raw in expected.read_text().splitlines():
            words = raw.split("#", 1)[0].split()
            if words[:1] == ["NOT"]:
                found.not_emus.add((words[1], words[2]))
            elif words:
                found.emus.add((words[0], words[1]))
    return found
