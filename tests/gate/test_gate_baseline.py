"""Baselines: write, re-run clean, twins still report, line moves keep matching, bad files."""

from __future__ import annotations

import json
from pathlib import Path

from topo.audit.gate import BASELINE_SCHEMA
from tests.gate.gate_helpers import APPS, CHECKS, check, copy_tree, line_of, tool_app

FUNCTION = '''@function_tool
def purge_workspace(path: str) -> str:
    """The model decides when to call this, and with which path."""
    shutil.rmtree(path)
    return "purged"
'''


def fixture_copy(tmp_path: Path) -> Path:
    """A temporary copy of the UNGOVERNED-PATH fixture, its EXPECT comments removed."""
    root = copy_tree(CHECKS / "UNGOVERNED-PATH" / "bad_model_invoked_tool", tmp_path / "app")
    app = root / "app.py"
    app.write_text(app.read_text().replace("  # EXPECT: UNGOVERNED-PATH", ""))
    assert FUNCTION in app.read_text()
    return root


def test_write_then_rerun_reports_nothing_new(tmp_path: Path) -> None:
    root = copy_tree(APPS / "cross_file", tmp_path / "cross_file")
    baseline = tmp_path / "topo-baseline.json"
    assert check(root).exit_code == 1
    written = check(root, "--write-baseline", baseline)
    assert written.exit_code == 0
    assert f"wrote baseline {baseline} (2 finding(s))" in written.stderr
    data = json.loads(baseline.read_text())
    assert data["schema"] == BASELINE_SCHEMA and data["fingerprint_scheme"] == "fp1"
    entries = data["findings"]
    assert [(e["file"], e["code"]) for e in entries] == sorted((e["file"], e["code"])
                                                               for e in entries)
    assert {e["code"] for e in entries} == {"UNGOVERNED-PATH", "HIDDEN-AUTHORITY"}
    assert all(e["count"] == 1 for e in entries)
    again = check(root, "--baseline", baseline)
    assert again.exit_code == 0
    assert "0 reported" in again.stdout and "2 in the baseline" in again.stdout
    document = check(root, "--baseline", baseline, "-f", "json").json()
    assert {f["suppressed"]["kind"] for f in document["findings"]} == {"external"}
    assert document["gate"]["counts"]["baselined"] == 2


def test_a_second_identical_finding_still_reports(tmp_path: Path) -> None:
    root = fixture_copy(tmp_path)
    baseline = tmp_path / "baseline.json"
    assert check(root, "--write-baseline", baseline).exit_code == 0
    app = root / "app.py"
    # Copy the function: a second, identical finding (same code, file, symbol and snippet).
    app.write_text(app.read_text().replace(FUNCTION, f"{FUNCTION}\n\n{FUNCTION}"))
    run = check(root, "--baseline", baseline, "-f", "json")
    assert run.exit_code == 1
    document = run.json()
    new = [f for f in document["findings"] if "suppressed" not in f]
    accepted = [f for f in document["findings"] if "suppressed" in f]
    assert len(new) == 1 and len(accepted) == 1
    assert new[0]["line"] > accepted[0]["line"]   # the copy below the original is the new one
    assert new[0]["fingerprint"] != accepted[0]["fingerprint"]
    # Recording both: the baseline counts two occurrences of one fingerprint.
    assert check(root, "--write-baseline", baseline).exit_code == 0
    [entry] = json.loads(baseline.read_text())["findings"]
    assert entry["count"] == 2 and entry["fingerprint"] == accepted[0]["fingerprint"]
    assert check(root, "--baseline", baseline).exit_code == 0


def test_twin_statements_in_one_function_are_counted(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    baseline = tmp_path / "baseline.json"
    assert check(root, "--write-baseline", baseline).exit_code == 0
    tool_app(root, "    shutil.rmtree(path)\n    shutil.rmtree(path)")
    run = check(root, "--baseline", baseline)
    assert run.exit_code == 1
    assert run.stdout.count(": UNGOVERNED-PATH [") == 1
    assert "app.py:10:5: UNGOVERNED-PATH" in run.stdout   # the second rmtree (line 9 is the first)


def test_moved_code_still_matches(tmp_path: Path) -> None:
    root = fixture_copy(tmp_path)
    baseline = tmp_path / "baseline.json"
    assert check(root, "--write-baseline", baseline).exit_code == 0
    app = root / "app.py"
    before = line_of(app, "shutil.rmtree")
    text = app.read_text().replace("import shutil\n", "import shutil\n\n# a comment\n\n\n")
    text = text.replace(FUNCTION, "\n\n" + FUNCTION)
    app.write_text(text)
    assert line_of(app, "shutil.rmtree") == before + 6
    run = check(root, "--baseline", baseline)
    assert run.exit_code == 0, run.stdout
    assert "1 in the baseline" in run.stdout


def test_a_finding_in_another_symbol_is_new(tmp_path: Path) -> None:
    root = fixture_copy(tmp_path)
    baseline = tmp_path / "baseline.json"
    assert check(root, "--write-baseline", baseline).exit_code == 0
    app = root / "app.py"
    app.write_text(app.read_text().replace("purge_workspace", "wipe_workspace"))
    run = check(root, "--baseline", baseline)
    assert run.exit_code == 1
    assert "tool `wipe_workspace`" in run.stdout


def test_in_source_suppressed_findings_stay_out_of_the_baseline(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", "    # topo: ignore[UNGOVERNED-PATH] -- session scratch "
                                      "directory\n    shutil.rmtree(path)")
    baseline = tmp_path / "baseline.json"
    assert check(root, "--write-baseline", baseline).exit_code == 0
    assert json.loads(baseline.read_text())["findings"] == []


def test_a_partial_scan_writes_no_baseline(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    (root / "broken.py").write_text("def broken(:\n")
    baseline = tmp_path / "baseline.json"
    run = check(root, "--write-baseline", baseline)
    assert run.exit_code == 2
    assert not baseline.exists()
    assert "not written: the scan is partial" in run.stderr
    assert check(root, "--write-baseline", baseline, "--allow-partial").exit_code == 0
    assert baseline.exists()


def test_unreadable_baselines_are_exit_2(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    cases = {"not-json.json": ("{", "invalid JSON"),
             "other.json": ('{"schema": "bandit"}', "not a topo-baseline/1 document"),
             "scheme.json": (json.dumps({"schema": BASELINE_SCHEMA, "fingerprint_scheme": "fp0",
                                         "findings": []}), "fingerprint scheme 'fp0'"),
             "count.json": (json.dumps({"schema": BASELINE_SCHEMA, "fingerprint_scheme": "fp1",
                                        "findings": [{"fingerprint": "fp1:ab", "count": 0}]}),
                            "'count' must be a whole number")}
    for name, (text, message) in cases.items():
        (tmp_path / name).write_text(text)
        run = check(root, "--baseline", tmp_path / name)
        assert run.exit_code == 2, name
        assert message in run.stderr, (name, run.stderr)
