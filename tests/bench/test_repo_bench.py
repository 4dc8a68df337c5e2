"""Smoke test of bench/repo_bench.py: on a tiny generated repository it prints every column and
every phase (figures are not checked: no timed assertions)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "repo_bench.py"
PHASES = ("ast.parse (floor)", "libcst.parse_module (floor)", "tree-sitter parse (floor)",
          "topo cold", "topo warm", "topo one-file-changed", "semgrep (1 rules)", "topo cold 50% of files",
          "topo cold 100% of files (= cold)")


def test_the_bench_prints_every_column_and_phase(tmp_path: Path) -> None:
    semgrep = tmp_path / "semgrep"             # a stand-in: the bench only times the binary
    semgrep.write_text("#!/bin/sh\nexit 0\n")
    semgrep.chmod(0o755)
    rules = tmp_path / "rules.yaml"
    rules.write_text("rules:\n  - id: one\n    languages: [python]\n    pattern: f()\n")
    env = {key: value for key, value in os.environ.items() if key != "TOPO_BENCH_SEMGREP"}
    run = subprocess.run([sys.executable, str(BENCH), "generated", "--generate-lines", "600",
                          "--subsets", "50,100", "--jobs", "1", "--semgrep", str(semgrep),
                          "--semgrep-rules", str(rules), "--work", str(tmp_path)],
                         capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    header = next(line for line in lines if line.startswith("phase"))
    assert header.split() == ["phase", "files", "lines", "wall_s", "cpu_s", "peak_rss_mib",
                              "parse_s", "analysis_s"]
    for phase in PHASES:
        [row] = [line for line in lines if re.match(re.escape(phase) + r"\s{2,}\d", line)]
        cells = row[len(phase):].split()
        assert len(cells) == 7, row
        assert float(cells[2]) >= 0 and float(cells[4]) > 0, row   # wall, peak RSS
    growth = next(line for line in lines if line.startswith("growth exponent"))
    for column in ("analysis_s", "wall_s", "peak_rss_mib"):
        assert column in growth
    assert "one-file-changed edited: app/agents/" in run.stdout
    assert not list(tmp_path.glob("topo-repo-bench-*")), "the scratch copy was left behind"
