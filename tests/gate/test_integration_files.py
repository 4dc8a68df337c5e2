"""The pre-commit hook and the GitHub Action say what README and conventions.md promise."""

from __future__ import annotations

import re

import pytest

from tests.gate.gate_helpers import REPO

yaml = pytest.importorskip("yaml", reason="PyYAML reads the hook and action files")


def test_pre_commit_hook_runs_the_whole_repository_gate() -> None:
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "topo"
    assert hook["entry"] == "topo check ."
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is False          # whole-program graph, not per file
    assert hook["require_serial"] is True
    assert "types" not in hook and "types_or" not in hook   # ANDed with `files` by pre-commit


@pytest.mark.parametrize("path, runs", [
    ("app.py", True), ("pkg/mod.py", True), ("analysis.ipynb", True), ("web/App.tsx", True),
    ("web/App.jsx", True), ("web/x.ts", True), ("web/x.mjs", True), ("web/x.cjs", True),
    ("emus/refunds.jsonl", True), ("svc/emus/refunds.jsonl", True), ("pyproject.toml", True),
    ("svc/pyproject.toml", True), ("topo.toml", True), (".topo.toml", True),
    ("README.md", False), ("data/refunds.jsonl", False), ("emus/notes.md", False),
    ("xtopo.toml", False), ("docs/logo.png", False), ("app.pyc", False),
])
def test_pre_commit_hook_runs_on_what_topo_reads(path: str, runs: bool) -> None:
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert (re.search(hook["files"], path) is not None) is runs


def test_action_uploads_sarif_even_when_the_gate_fails_then_fails_the_job() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    [check] = [s for s in steps if s.get("id") == "check"]
    assert check["continue-on-error"] is True
    upload_index = next(i for i, s in enumerate(steps)
                        if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    upload = steps[upload_index]
    assert upload["uses"] == "github/codeql-action/upload-sarif@v4"
    assert "always()" in upload["if"] and "steps.decide.outputs.upload == 'true'" in upload["if"]
    assert upload["with"]["category"] == "${{ inputs.category }}"
    [decide] = [s for s in steps if s.get("id") == "decide"]
    assert steps.index(check) < steps.index(decide) < upload_index < len(steps) - 1
    last = steps[-1]
    assert "always()" in last["if"] and "steps.check.outputs.exit-code" in last["env"]["CODE"]
    assert "security-events: write" in (REPO / "action.yml").read_text()


def test_action_leaves_the_callers_python_alone() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    steps = action["runs"]["steps"]
    assert not any("setup-python" in s.get("uses", "") for s in steps)
    assert "python-version" not in action["inputs"]
    [install] = [s for s in steps if s.get("id") == "install"]
    assert install["run"] == 'bash "$ACTION_PATH/scripts/action.sh" install'
    [check] = [s for s in steps if s.get("id") == "check"]
    assert check["env"]["TOPO_BIN"] == "${{ steps.install.outputs.topo-bin }}"
    for step in steps:
        if "run" in step:   # inputs come in through env, never spliced into the script
            assert "${{" not in step["run"], step["name"]
            assert step["run"].startswith('bash "$ACTION_PATH/scripts/action.sh" ')


def test_readme_has_copy_paste_snippets_for_both() -> None:
    readme = (REPO / "README.md").read_text()
    assert "id: topo" in readme and "repos:" in readme
    assert "security-events: write" in readme and "contents: read" in readme
    assert "fetch-depth: 0" in readme
    assert "[tool.topo]" in readme and "Precedence" in readme
