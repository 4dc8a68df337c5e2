"""`topo check`: exit codes 0/1/2, --fail-on, --exit-zero, partial scans, output streams."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.gate.gate_helpers import APPS, CHECKS, check, copy_tree, tool_app

LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z][A-Z-]+) "
                  r"\[(?P<severity>critical|high|medium|low)\] (?P<message>.+)$")


@pytest.fixture()
def low_only(tmp_path: Path) -> Path:
    """One RETENTION-WINDOW finding (low), nothing else."""
    return copy_tree(CHECKS / "RETENTION-WINDOW" / "bad_doc_example", tmp_path / "low")


def test_clean_repository_exits_0(tmp_path: Path) -> None:
    root = tmp_path / "clean"
    root.mkdir()
    (root / "main.py").write_text("print('hello')\n")
    run = check(root)
    assert run.exit_code == 0
    assert run.stdout.splitlines() == [
        "topo check: passed: no finding at or above high; 0 reported, 0 suppressed in source, "
        "0 in the baseline"]


def test_findings_at_the_threshold_exit_1_with_one_line_each(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    run = check(root)
    assert run.exit_code == 1
    *lines, summary = run.stdout.splitlines()
    # Each finding line is followed by its code frame and help, indented.
    [match] = [LINE.match(line) for line in lines if not line.startswith(" ")]
    assert match is not None, lines
    assert (match["file"], match["line"], match["col"], match["code"], match["severity"]) == \
        (f"{root.as_posix()}/app.py", "9", "5", "UNGOVERNED-PATH", "critical")
    assert summary.startswith("topo check: failed: 1 finding(s) at or above high")


def test_fail_on_sets_the_threshold(low_only: Path) -> None:
    assert check(low_only).exit_code == 0                       # default: high
    assert check(low_only, "--fail-on", "medium").exit_code == 0
    run = check(low_only, "--fail-on", "low")
    assert run.exit_code == 1
    assert LINE.match(run.stdout.splitlines()[0])["code"] == "RETENTION-WINDOW"
    assert check(low_only, "--fail-on", "LOW").exit_code == 1   # case-insensitive
    assert check(APPS / "cross_file", "--fail-on", "critical").exit_code == 1


def test_exit_zero_reports_but_passes(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    run = check(root, "--exit-zero")
    assert run.exit_code == 0
    assert "UNGOVERNED-PATH [critical]" in run.stdout
    assert run.stdout.rstrip().endswith("exit 0 (--exit-zero)")


def test_partial_scan_is_exit_2_never_clean(tmp_path: Path) -> None:
    root = tmp_path / "partial"
    root.mkdir()
    (root / "ok.py").write_text("print('fine')\n")
    (root / "broken.py").write_text("def broken(:\n    pass\n")
    run = check(root)
    assert run.exit_code == 2
    assert "incomplete: 1 input(s) could not be read" in run.stdout
    assert "topo: unknown: broken.py" in run.stderr and "broken.py" not in run.stdout
    assert check(root, "--allow-partial").exit_code == 0        # gates on what was read
    assert check(root, "--exit-zero").exit_code == 0            # report only
    document = check(root, "-f", "json").json()
    assert document["gate"]["status"] == "partial" and document["gate"]["exit_code"] == 2


def test_partial_scan_with_findings_and_allow_partial_exits_1(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    (root / "broken.py").write_text("def broken(:\n    pass\n")
    assert check(root).exit_code == 2
    run = check(root, "--allow-partial")
    assert run.exit_code == 1
    assert "partial scan: 1 input(s) could not be read" in run.stdout


@pytest.mark.parametrize("args, message", [
    (["--fail-on", "severe"], "Invalid value for '--fail-on'"),
    (["--baseline", "missing.json"], "no such file"),
    (["-f", "xml"], "Invalid value for '-f'"),
    (["--quiet", "--verbose"], "--quiet and --verbose exclude each other"),
])
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    root = tool_app(tmp_path / "app")
    run = check(root, *[str(tmp_path / a) if a.endswith(".json") else a for a in args])
    assert run.exit_code == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr + run.stdout


def test_a_missing_path_is_exit_2_even_with_exit_zero(tmp_path: Path) -> None:
    run = check(tmp_path / "nowhere", "--exit-zero")
    assert run.exit_code == 2
    assert "no such file or directory" in run.stderr


def test_json_is_the_audit_document_with_a_gate_section(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    document = check(root, "-f", "json").json()
    assert document["schema"] == "topo-audit/2"
    [finding] = document["findings"]
    gate = document["gate"]
    assert gate["status"] == "failed" and gate["exit_code"] == 1 and gate["fail_on"] == "high"
    assert gate["failing"] == [finding["id"]]
    assert gate["counts"]["reported"] == 1 and gate["counts"]["baselined"] == 0


def test_output_file_keeps_stdout_free(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    target = tmp_path / "out.sarif"
    run = check(root, "-f", "sarif", "-o", target)
    assert run.exit_code == 1
    assert run.stdout == ""
    assert '"version": "2.1.0"' in target.read_text()
