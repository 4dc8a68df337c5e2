"""Running topo as a separate process on hostile inputs built in a temp dir.

A separate process, because what these tests guard against is a crash signal or a hang: in
process, a segfault would take pytest down and a FIFO would block it forever. Every run has a
timeout, so a hang fails the test instead.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# One HIDDEN-AUTHORITY (line 12) and one UNGOVERNED-PATH (line 13): the healthy file whose
# findings must survive beside every hostile one.
HEALTHY_APP = REPO / "corpus" / "checks" / "HIDDEN-AUTHORITY" / "bad_confidence" / "app.py"
HEALTHY_FINDINGS = [("app.py", 12, "HIDDEN-AUTHORITY"), ("app.py", 13, "UNGOVERNED-PATH")]


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def document(self) -> dict:
        return json.loads(self.stdout)

    def unknown_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.startswith("topo: unknown:")]


def topo(*args: object, cwd: Path | None = None, timeout: float = 120) -> Run:
    """`topo ARGS` in a fresh interpreter; stdout must be valid UTF-8."""
    command = [sys.executable, "-c", "from topo.cli.main import main; main()",
               *(str(arg) for arg in args)]
    done = subprocess.run(command, cwd=cwd, capture_output=True, timeout=timeout, check=False)
    return Run(done.returncode, done.stdout.decode("utf-8"),
               done.stderr.decode("utf-8", "backslashreplace"))


def healthy_repo(root: Path) -> Path:
    """A repository holding the healthy app, ready for hostile files beside it."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(HEALTHY_APP, root / "app.py")
    return root


def findings(document: dict) -> list[tuple[str, int, str]]:
    return sorted((f["file"], f["line"], f["code"]) for f in document["findings"])


def check_json(root: Path, *options: object, timeout: float = 120) -> Run:
    """`topo check ROOT -f json --no-cache` (a cache shared across runs would hide a crash)."""
    return topo("check", root, "-f", "json", "--no-cache", "-q", *options, timeout=timeout)
