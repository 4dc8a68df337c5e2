"""`--export-tests DIR`: the written pytest file runs green against topo's own evaluator, and
fails when the policy it pins changes."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.helpers import POLICIES, run


def export(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "exported"
    result = run("fuzz", *args, "--export-tests", str(out), "--max-examples", "40",
                 "-o", str(tmp_path / "report.md"))
    assert result.exit_code in (0, 1), result.stderr
    (path,) = out.glob("test_*.py")
    assert f"wrote {path}" in result.stderr
    return path


def pytest_on(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(path)], capture_output=True, text=True, cwd=path.parent)


def cases_of(path: Path) -> list:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (cases,) = [node.value for node in tree.body if isinstance(node, ast.Assign)
                and node.targets[0].id == "CASES"]
    return ast.literal_eval(cases)


@pytest.fixture(scope="module")
def refund_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("refund")
    return export(tmp, str(POLICIES / "refund_v2"), "--before", str(POLICIES / "refund_v1"))


def test_the_exported_file_runs_green_against_the_evaluator(refund_export: Path) -> None:
    result = pytest_on(refund_export)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(cases_of(refund_export))} passed" in result.stdout


def test_the_export_pins_the_docs_cases(refund_export: Path) -> None:
    cases = cases_of(refund_export)
    assert refund_export.name == "test_fuzz_refund_v2.py"
    labels = {case[1]: case[3] for case in cases}
    assert labels["witness"] is True
    assert labels["refund.amount_cents = 7500"] is True
    assert labels["refund.amount_cents = 7501"] is False
    assert labels["payment.currency = absent"] is False
    assert any(label == "changed against --before" for label in labels)


def test_the_exported_file_fails_when_the_policy_changes(refund_export: Path,
                                                         tmp_path: Path) -> None:
    changed = tmp_path / "test_changed.py"
    changed.write_text(refund_export.read_text(encoding="utf-8").replace("<= 7500", "<= 5000"),
                       encoding="utf-8")
    result = pytest_on(changed)
    assert result.returncode == 1
    assert "refund.amount_cents = 7500" in result.stdout


def test_absence_witnesses_are_exported_as_matching_cases(tmp_path: Path) -> None:
    path = export(tmp_path, str(POLICIES / "dead"))
    cases = cases_of(path)
    assert ("support.unbanned_greeting", "witness", {"events": [], "state": {}, "tags": {}},
            True) in cases
    assert pytest_on(path).returncode == 0
