"""`-o` means the same for audit, check and graph; `graph` takes the scan options; every run
ends with what it read (stderr, respecting -q) and the JSON document holds the same counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gate.gate_helpers import APPS, TOOL_APP, check, tool_app, topo

CROSS = APPS / "cross_file"


# -o

def test_check_writes_a_file_or_the_usual_name_in_a_directory(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    assert check(root, "-f", "sarif", "-o", tmp_path / "gate.sarif").exit_code == 1
    assert json.loads((tmp_path / "gate.sarif").read_text())["version"] == "2.1.0"
    assert check(root, "-f", "junit", "-o", f"{tmp_path / 'reports'}/").exit_code == 1
    assert (tmp_path / "reports" / "topo-junit.xml").is_file()
    existing = tmp_path / "existing"
    existing.mkdir()
    assert check(root, "-f", "gitlab", "-o", existing).exit_code == 1
    assert (existing / "gl-code-quality-report.json").is_file()


def test_one_format_and_a_name_without_extension_is_refused(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    for command in (("check", root, "-f", "sarif"), ("audit", root, "-f", "sarif"),
                    ("graph", root)):
        run = topo(*command, "--no-cache", "-o", tmp_path / "report")
        assert run.exit_code == 2, command
        assert "has no extension" in run.stderr and "report/" in run.stderr
        assert not (tmp_path / "report").exists()


def test_audit_with_one_named_format_writes_that_file(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    run = topo("audit", root, "-f", "sarif", "-o", tmp_path / "out.sarif", "--no-cache")
    assert run.exit_code == 0, run.stderr
    assert (tmp_path / "out.sarif").is_file()
    assert run.stdout.strip() == str(tmp_path / "out.sarif")


def test_several_formats_into_a_file_name_are_refused(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    run = topo("audit", root, "-f", "json,sarif", "-o", tmp_path / "out.sarif", "--no-cache")
    assert run.exit_code == 2
    assert "looks like a file name, but 2 formats" in run.stderr
    assert not (tmp_path / "out.sarif").exists()          # no directory called out.sarif
    (tmp_path / "plain.txt").write_text("x")
    run = topo("audit", root, "-f", "json,sarif", "-o", tmp_path / "plain.txt", "--no-cache")
    assert run.exit_code == 2 and "is a file" in run.stderr


def test_several_formats_go_into_a_directory(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    assert topo("audit", root, "-f", "json,md", "-o", tmp_path / "reports",
                "--no-cache").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == [
        "TOPOLOGY_STATE.json", "TOPOLOGY_STATE.md"]


# graph takes the scan options

def test_graph_takes_exclude_include_tests_and_quiet(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    (root / "tests").mkdir()
    (root / "tests" / "helper.py").write_text(TOOL_APP.format(body="    shutil.rmtree(path)")
                                              .replace("purge_workspace", "test_purge"))

    def files(*args: object) -> set[str]:
        run = topo("graph", root, "-f", "json", "--no-cache", "-j", "1", "-q", *args)
        assert run.exit_code == 0, run.stderr
        assert run.stderr == ""
        return {node.get("file") for node in json.loads(run.stdout)["nodes"]} - {None}

    assert files() == {"app.py"}
    assert files("--include-tests") == {"app.py", "tests/helper.py"}
    assert files("--include-tests", "--exclude", "app.py") == {"tests/helper.py"}
    run = topo("graph", root, "--cache-dir", tmp_path / "cache", "-v")
    assert run.exit_code == 0 and "] parsing 1 files" in run.stderr
    assert (tmp_path / "cache").is_dir()
    assert topo("graph", root, "-q", "-v").exit_code == 2


# What was read

def _mixed_repo(root: Path) -> Path:
    tool_app(root)
    (root / "tests").mkdir()
    (root / "tests" / "test_app.py").write_text("def test_x():\n    pass\n")
    (root / "README.md").write_text("# app\n")
    (root / "notes.md").write_text("notes\n")
    (root / "logo.png").write_bytes(b"\x89PNG")
    (root / "broken.ipynb").write_text("{ not json")
    (root / "ui.ts").write_text("export const x = 1;\n")
    return root


def test_every_check_ends_with_what_was_read(tmp_path: Path) -> None:
    root = _mixed_repo(tmp_path / "app")
    run = check(root, "--allow-partial")
    assert run.stderr.splitlines()[-1] == (
        "topo: read 2 files (1 python, 1 typescript/javascript) and 0 EMU files; skipped 4 "
        "(2 not source: .md, 1 not source: .png, 1 tests and fixtures (directories not entered)); "
        "1 unknown; "
        "32 codes checked")
    assert "topo: read" not in check(root, "--allow-partial", "-q").stderr


def test_a_git_listing_counts_the_files_of_skipped_directories(tmp_path: Path) -> None:
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = _mixed_repo(tmp_path / "app")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    coverage = check(root, "-f", "json", "--exit-zero").json()["coverage"]
    assert coverage["skipped"]["tests and fixtures"] == 1


def test_audit_ends_with_what_was_read_and_the_document_holds_it(tmp_path: Path) -> None:
    root = _mixed_repo(tmp_path / "app")
    run = topo("audit", root, "-f", "json", "-o", "-", "--no-cache")
    assert run.stderr.splitlines()[-1].startswith("topo: read 2 files (1 python, 1 typescript")
    coverage = json.loads(run.stdout)["coverage"]
    assert coverage["analysed"] == {"python": 1, "typescript/javascript": 1}
    assert coverage["skipped"] == {"not source: .md": 2, "not source: .png": 1,
                                   "tests and fixtures (directories not entered)": 1}
    assert coverage["unknowns"] == 1 and coverage["emu_files"] == 0
    assert "UNGOVERNED-PATH" in coverage["codes"] and len(coverage["codes"]) == 32
    quiet = topo("audit", root, "-f", "json", "-o", "-", "--no-cache", "-q")
    assert "topo: read" not in quiet.stderr


def test_notebooks_and_emu_files_are_counted(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "nb.ipynb").write_text(json.dumps({"nbformat": 4, "cells": [
        {"cell_type": "code", "source": "x = 1"}]}))
    run = topo("audit", APPS / "demo_support_agent", "-f", "json", "-o", "-", "--no-cache")
    assert json.loads(run.stdout)["coverage"]["emu_files"] == 1
    assert "(1 notebook)" in check(root).stderr


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_the_closing_line_never_reaches_stdout(fmt: str) -> None:
    run = check(CROSS, "-f", fmt)
    assert "topo: read" not in run.stdout and "topo: read" in run.stderr
