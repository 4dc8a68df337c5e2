"""Benchmark of the EMU stages of `topo audit` against a bare `json.loads` of the same lines.

Generates a repository holding one `emus/emus.jsonl` of N EMUs (the first EMU of
`corpus/policies/refund_v1/`, with key `support.refund_{i}`, decision point
`refund.point_{i % 500}` and its `5000` threshold replaced by `1000 + i`, so every trigger text
is distinct), then times each phase in a fresh process: a bare `json.loads` of every line,
`load_emus` (read + parse triggers), `validate_directory` (load + schema + lints), `run_audit`,
`run_audit` + `render_json`, and the `topo audit -f json` command. Prints wall and CPU seconds
and the peak RSS of each phase's process side by side; asserts nothing. Wall and CPU of the
in-process phases cover the phase only (not the interpreter start or imports); the peak RSS is
the whole process's high-water mark (`ru_maxrss` from `wait4`), so it includes the imports
and, on Linux, the bench's own size when it forked (the `python -c pass` line is that floor).
The in-process phases run with the default garbage-collector thresholds; the command runs
with the ones topo's entry point sets. CPU time is the steadier figure on a shared machine.

    python bench/emu_bench.py [--emus 20000] [--repo PATH] [--phases a,b,...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_TEMPLATE = _ROOT / "corpus" / "policies" / "refund_v1"
_DECISION_POINTS = 500
PHASES = ("json.loads", "load_emus", "validate_directory", "run_audit", "run_audit+json",
          "topo audit -f json")


def generate_repository(root: Path, emus: int) -> None:
    """Write `emus` distinct EMUs, one per line, to `root/emus/emus.jsonl`."""
    template_file = sorted(_TEMPLATE.glob("*.jsonl"))[0]
    template = json.loads(template_file.read_text("utf-8").splitlines()[0])
    (root / "emus").mkdir(parents=True)
    with open(root / "emus" / "emus.jsonl", "w", encoding="utf-8") as out:
        for index in range(emus):
            emu = {**template, "emu_key": f"support.refund_{index}",
                   "decision_point": f"refund.point_{index % _DECISION_POINTS}",
                   "trigger": template["trigger"].replace("5000", str(1000 + index))}
            out.write(json.dumps(emu) + "\n")


def _phase(name: str, root: Path) -> None:
    """Run one phase in this (fresh) process; print its own wall and CPU seconds."""
    from topo.audit import emitters
    from topo.audit.pipeline import AuditRequest, run_audit
    from topo.audit.policy import load_emus, validate_directory
    from topo.reports.document import audit_document
    from topo.reports.json_report import json_pieces

    def write_json() -> None:
        with open(os.devnull, "w", encoding="utf-8") as sink:
            for piece in json_pieces(audit_document(run_audit(AuditRequest(root)))):
                sink.write(piece)

    actions = {
        "json.loads": lambda: [json.loads(line) for line in
                               (root / "emus" / "emus.jsonl").read_bytes().split(b"\n")
                               if line.strip()],
        "load_emus": lambda: load_emus(root / "emus", root=root),
        "validate_directory": lambda: validate_directory(root / "emus", root=root,
                                                         lints=emitters.LINTS),
        "run_audit": lambda: run_audit(AuditRequest(root)),
        "run_audit+json": write_json,
    }
    start, cpu = time.perf_counter(), time.process_time()
    actions[name]()
    print(json.dumps({"seconds": time.perf_counter() - start,
                      "cpu_seconds": time.process_time() - cpu}))


def _measure(command: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one child process, and its stdout."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = child.stdout.read().decode() if child.stdout else ""
    _, _, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output


def _report(label: str, seconds: float, cpu: float, peak: float, bare: float | None) -> None:
    ratio = f" cpu/json.loads={cpu / bare:.1f}" if bare else ""
    print(f"{label:<22} seconds={seconds:7.2f} cpu_seconds={cpu:7.2f} "
          f"peak_rss_mib={peak:6.0f}{ratio}", flush=True)


def run(root: Path, phases: tuple[str, ...]) -> None:
    lines = (root / "emus" / "emus.jsonl").read_bytes().count(b"\n")
    print(f"root={root} emu_lines={lines} cores={os.cpu_count()} python={sys.version.split()[0]}")
    _, _, peak, _ = _measure([sys.executable, "-c", "pass"])
    _report("python -c pass", 0.0, 0.0, peak, None)
    bare = None
    for name in phases:
        if name == "topo audit -f json":
            with tempfile.TemporaryDirectory(prefix="topo-bench-out-") as out:
                seconds, cpu, peak, _ = _measure(
                    [sys.executable, "-c", "from topo.cli import main; main()", "audit",
                     str(root), "-f", "json", "-o", out, "-q", "--no-cache"])
        else:
            _, _, peak, output = _measure([sys.executable, __file__, "--phase", name,
                                           "--repo", str(root)])
            timing = json.loads(output.strip().splitlines()[-1])
            seconds, cpu = timing["seconds"], timing["cpu_seconds"]
        bare = cpu if name == "json.loads" else bare
        _report(name, seconds, cpu, peak, None if name == "json.loads" else bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emus", type=int, default=20000)
    parser.add_argument("--repo", type=Path, default=None,
                        help="audit this repository instead of generating one")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--phase", default=None, help=argparse.SUPPRESS)  # one child's phase
    options = parser.parse_args()
    if options.phase is not None:
        _phase(options.phase, options.repo)
        return
    phases = tuple(name for name in options.phases.split(",") if name)
    unknown = set(phases) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases {sorted(unknown)} (phases: {', '.join(PHASES)})")
    if options.repo is not None:
        run(options.repo, phases)
        return
    with tempfile.TemporaryDirectory(prefix="topo-bench-emus-") as directory:
        generate_repository(Path(directory), options.emus)
        run(Path(directory), phases)


if __name__ == "__main__":
    main()
