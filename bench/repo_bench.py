"""Whole-audit benchmark of one or more repositories, side by side with a bare parse and semgrep.

For each target, in one run: a bare `ast.parse` and a bare `libcst.parse_module` of every
in-scope `.py` file (the floor, and the floor of the parser the front-end is built on; one
process each) and a bare tree-sitter parse of every in-scope TS/JS file, `topo audit` cold (empty cache),
warm (the same cache) and one-file-changed (one Python file's content edited in a copy, warm
cache), semgrep with `--semgrep-rules` when a semgrep binary is given or found, and `topo audit`
cold on 10/25/50/100 % file subsets, with the growth exponent (log-log slope of time and memory
over lines; the 100 % point is the cold run). Every figure is one child process: wall seconds,
CPU seconds and peak RSS of that child and the workers it waited for (`os.wait4`; Linux counts a
child's RSS at fork, so this process stays small: about 40 MiB is its share of each figure). `analysis_s` is the audit after parsing (call
graph, dataflow, graph, checks; `-v` stage times), `parse_s` the per-file stage. Asserts
nothing; figures only.

    python bench/repo_bench.py PATH [PATH ...] [--generate-lines N] [--semgrep BIN]
        [--semgrep-rules FILE] [--subsets 10,25,50,100] [--jobs N] [--work DIR] [--seed 1]

A target is a directory (audited in a hard-linked copy: the target is never written), or
`generated` for a repository made by `frontend_bench.py`'s generators (`--generate-lines`
lines, 85 % Python, 15 % TypeScript). semgrep is looked for in `--semgrep`, `$TOPO_BENCH_SEMGREP`,
then `PATH`; install it in a venv of its own, never in topo's.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from frontend_bench import generate_repository, generate_ts_repository  # noqa: E402

from topo.analyzers.discovery.inventory import discover  # noqa: E402
from topo.analyzers.ir import Language  # noqa: E402

DEFAULT_RULES = HERE.parent.parent / "shared" / "bench" / "semgrep-10.yaml"
_SCRIPTS = (Language.TYPESCRIPT, Language.TSX, Language.JAVASCRIPT)
_STAGE = re.compile(r"^topo: \[\s*([0-9.]+)s\] (.*)$")
COLUMNS = ("phase", "files", "lines", "wall_s", "cpu_s", "peak_rss_mib", "parse_s",
           "analysis_s")


@dataclass(frozen=True, slots=True)
class Row:
    phase: str
    files: int
    lines: int
    wall: float
    cpu: float
    rss_mib: float
    parse: float | None = None
    analysis: float | None = None

    def cells(self) -> list[str]:
        def seconds(value: float | None) -> str:
            return "-" if value is None else f"{value:.2f}"
        return [self.phase, str(self.files), f"{self.lines:,}", seconds(self.wall),
                seconds(self.cpu), f"{self.rss_mib:.0f}", seconds(self.parse),
                seconds(self.analysis)]


@dataclass(frozen=True, slots=True)
class Child:
    wall: float
    cpu: float
    rss_mib: float
    code: int
    stdout: str
    stderr: str


def run_child(argv: list[str], env: dict[str, str] | None = None) -> Child:
    """Run `argv`; its wall and CPU time and peak RSS (with its reaped workers), via wait4."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Child(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                     process.returncode, out.read(), err.read())


# ---- the floor: a bare parse, in a child of its own --------------------------------------------

def floor(root: Path, language: str) -> None:
    """Child mode: parse every in-scope file of `language` and print files, lines, seconds."""
    inventory = discover(root)
    if language in ("python", "libcst"):
        sources = [(root / s.path).read_bytes() for s in inventory.sources
                   if s.language is Language.PYTHON]
        parse = ast.parse if language == "python" else _libcst_parse()
        start = time.perf_counter()
        for data in sources:
            try:
                parse(data)
            except Exception:  # noqa: BLE001 - a file the parser refuses is not the floor's
                pass
    else:
        from topo.analyzers.typescript.grammars import parse_tree
        sources = [(root / s.path).read_bytes() for s in inventory.sources
                   if s.language in _SCRIPTS]
        languages = [s.language for s in inventory.sources if s.language in _SCRIPTS]
        start = time.perf_counter()
        for language_of, data in zip(languages, sources):
            parse_tree(language_of, data)
    seconds = time.perf_counter() - start
    print(json.dumps({"files": len(sources), "lines": sum(d.count(b"\n") for d in sources),
                      "seconds": seconds}))


def _libcst_parse() -> Callable[[bytes], object]:
    """libcst's parse as the front-end runs it (the native parser, text in): the floor of the
    spec's Python parser, below which no libcst front-end can go."""
    import libcst
    return lambda data: libcst.parse_module(data.decode("utf-8", "replace"))


def floor_row(root: Path, language: str) -> Row:
    child = run_child([sys.executable, __file__, "--floor", language, str(root)])
    if child.code != 0:
        raise SystemExit(f"floor parse failed: {child.stderr[-2000:]}")
    found = json.loads(child.stdout)
    label = {"python": "ast.parse (floor)", "libcst": "libcst.parse_module (floor)"}.get(
        language, "tree-sitter parse (floor)")
    # Wall and CPU of the parse loop itself (the interpreter's start is not the floor's).
    return Row(label, found["files"], found["lines"], found["seconds"], found["seconds"],
               child.rss_mib)


# ---- topo ------------------------------------------------------------------------------------

_TOPO = "import sys; from topo.cli import main; sys.argv[0] = 'topo'; main()"


def topo_row(phase: str, root: Path, out: Path, cache: Path | None, jobs: int | None) -> Row:
    argv = [sys.executable, "-c", _TOPO, "audit", str(root), "-f", "json", "-o", f"{out}/", "-v"]
    argv += ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]
    if jobs:
        argv += ["-j", str(jobs)]
    child = run_child(argv)
    if child.code != 0:
        raise SystemExit(f"topo audit failed ({child.code}): {child.stderr[-2000:]}")
    summary = _summary(out / "TOPOLOGY_STATE.json")
    stages = {name.split(" ")[0]: float(at) for at, name in
              (m.groups() for m in map(_STAGE.match, child.stderr.splitlines()) if m)}
    parse = analysis = None
    if {"parsing", "parsed", "done"} <= stages.keys():
        parse = stages["parsed"] - stages["parsing"]
        analysis = stages["done"] - stages["parsed"]
    return Row(phase, summary["files"], summary["lines"], child.wall, child.cpu, child.rss_mib,
               parse, analysis)


_SUMMARY = ("import json, sys; "
            "print(json.dumps(json.load(open(sys.argv[1], encoding='utf-8'))['summary']))")


def _summary(document: Path) -> dict:
    """The document's summary, read in a child: a child's peak RSS starts at its parent's
    size when forked, so this process never loads a large document itself."""
    child = subprocess.run([sys.executable, "-c", _SUMMARY, str(document)], check=True,
                           capture_output=True, text=True)
    return json.loads(child.stdout)


# ---- semgrep ---------------------------------------------------------------------------------

def semgrep_binary(given: str | None) -> str | None:
    for candidate in (given, os.environ.get("TOPO_BENCH_SEMGREP"), shutil.which("semgrep")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def semgrep_row(binary: str, rules: Path, root: Path, jobs: int | None, files: int,
                lines: int) -> Row:
    env = {**os.environ, "SEMGREP_ENABLE_VERSION_CHECK": "0", "SEMGREP_SEND_METRICS": "off"}
    argv = [binary, "scan", "--config", str(rules), "--metrics=off", "--json", "--quiet",
            "--output", os.devnull, "--jobs", str(jobs or os.cpu_count() or 1), str(root)]
    child = run_child(argv, env)
    phase = f"semgrep ({_rule_count(rules)} rules)"
    if child.code not in (0, 1):
        phase += f" FAILED {child.code}"
    return Row(phase, files, lines, child.wall, child.cpu, child.rss_mib)


def _rule_count(rules: Path) -> int:
    return sum(1 for line in rules.read_text("utf-8").splitlines()
               if line.lstrip().startswith("- id:"))


# ---- targets, copies and subsets -----------------------------------------------------------

def linked_copy(source: Path, destination: Path) -> Path:
    """A hard-linked copy (no bytes copied; never written through: see `edit_one_file`)."""
    shutil.copytree(source, destination, copy_function=os.link, symlinks=True,
                    ignore=shutil.ignore_patterns(".git"))
    return destination


def edit_one_file(root: Path, seed: int) -> str:
    """Change one in-scope Python file's content (a new inode: the target stays intact)."""
    python = sorted(s.path for s in discover(root).sources if s.language is Language.PYTHON)
    chosen = python[random.Random(seed).randrange(len(python))]
    path = root / chosen
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data + b"\n# repo_bench: one line changed\n")
    return chosen


def subset(root: Path, destination: Path, percent: int, seed: int) -> Path:
    """A copy of `root` keeping `percent` % of its source files (every other file kept)."""
    linked_copy(root, destination)
    sources = sorted(s.path for s in discover(destination).sources)
    keep = set(random.Random(seed).sample(sources, max(1, round(len(sources) * percent / 100))))
    for path in sources:
        if path not in keep:
            (destination / path).unlink()
    return destination


def generated(root: Path, lines: int, seed: int) -> Path:
    """frontend_bench's agent-style repository of about `lines` lines (about 200 a file)."""
    files = max(2, lines // 200)
    typescript = max(1, files * 15 // 100)
    generate_repository(root, files - typescript, seed)
    generate_ts_repository(root, typescript, seed)
    return root


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(y) over log(x): the growth exponent."""
    points = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y and y > 0]
    if len(points) < 2:
        return None
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if spread == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread


# ---- one target ------------------------------------------------------------------------------

def bench(target: str, args: argparse.Namespace, work: Path) -> None:
    name = "generated" if target == "generated" else Path(target).resolve().name
    base = work / name
    base.mkdir(parents=True)
    if target == "generated":
        root = generated(base / "copy" / "generated-repo", args.generate_lines, args.seed)
    else:
        root = linked_copy(Path(target).resolve(), base / "copy" / name)
    cache, out = base / "cache", base / "out"
    floors = [floor_row(root, "python"), floor_row(root, "libcst"), floor_row(root, "typescript")]
    cold = topo_row("topo cold", root, out, cache, args.jobs)
    warm = topo_row("topo warm", root, out, cache, args.jobs)
    changed = edit_one_file(root, args.seed)
    one_file = topo_row("topo one-file-changed", root, out, cache, args.jobs)
    rows = [*floors, cold, warm, one_file]
    binary = semgrep_binary(args.semgrep)
    if binary is not None and args.semgrep_rules.is_file():
        rows.append(semgrep_row(binary, args.semgrep_rules, root, args.jobs, cold.files,
                                cold.lines))
    growth: list[Row] = []
    for percent in args.subsets:
        if percent == 100:      # the cold run is the whole repository's point
            growth.append(Row("topo cold 100% of files (= cold)", *_fields(cold)))
            continue
        part = subset(root, base / f"subset-{percent}" / root.name, percent, args.seed)
        growth.append(topo_row(f"topo cold {percent}% of files", part, base / f"out-{percent}",
                               None, args.jobs))
        shutil.rmtree(part.parent)
    _print(target, rows + growth, _Runs(cold, warm, one_file, changed), binary, growth)


@dataclass(frozen=True, slots=True)
class _Runs:
    """The three runs the summary lines compare, and the file the one-file run edited."""
    cold: Row
    warm: Row
    one_file: Row
    changed: str


def _fields(row: Row) -> tuple:
    return (row.files, row.lines, row.wall, row.cpu, row.rss_mib, row.parse, row.analysis)


def _print(target: str, rows: list[Row], runs: _Runs, binary: str | None,
           growth: list[Row]) -> None:
    cold = runs.cold
    print(f"\n== {target} ({cold.files} files, {cold.lines:,} lines in scope) "
          f"{datetime.now(UTC):%Y-%m-%d} {platform.machine()} cores={os.cpu_count()} "
          f"python={platform.python_version()}")
    table = [list(COLUMNS), *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(COLUMNS))]
    for line in table:
        print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                        for i, cell in enumerate(line)))
    print(f"one-file-changed edited: {runs.changed}")
    if binary is None:
        print("semgrep: not found (--semgrep BIN or $TOPO_BENCH_SEMGREP): column left out")
    print(f"one-file-changed / cold wall: {runs.one_file.wall / cold.wall:.1%}; "
          f"warm / cold wall: {runs.warm.wall / cold.wall:.1%}")
    exponents = {label: slope([(row.lines, pick(row)) for row in growth])
                 for label, pick in (("analysis_s", lambda r: r.analysis),
                                     ("wall_s", lambda r: r.wall),
                                     ("peak_rss_mib", lambda r: r.rss_mib))}
    print("growth exponent (log-log slope over " +
          "/".join(f"{row.lines:,}" for row in growth) + " lines): " +
          ", ".join(f"{label} {'-' if value is None else f'{value:.2f}'}"
                    for label, value in exponents.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help="repository directories, or 'generated'")
    parser.add_argument("--generate-lines", type=int, default=1_000_000)
    parser.add_argument("--semgrep", default=None, help="the semgrep binary")
    parser.add_argument("--semgrep-rules", type=Path, default=DEFAULT_RULES)
    parser.add_argument("--subsets", default="10,25,50,100")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--work", type=Path, default=None, help="scratch directory")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--floor", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:
        floor(Path(args.targets[0]), args.floor)
        return
    if not args.targets:
        parser.error("name at least one target (a directory, or 'generated')")
    args.subsets = [int(part) for part in args.subsets.split(",") if part.strip()]
    if args.work is not None:
        Path(args.work).mkdir(parents=True, exist_ok=True)    # it may not exist yet
    with tempfile.TemporaryDirectory(prefix="topo-repo-bench-", dir=args.work) as scratch:
        for target in args.targets:
            bench(target, args, Path(scratch))


if __name__ == "__main__":
    main()
