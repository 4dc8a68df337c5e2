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
    assert hook["types_or"] == ["python", "ts", "tsx", "javascript"]


def test_action_uploads_sarif_even_when_the_gate_fails_then_fails_the_job() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    [check] = [s for s in steps if s.get("id") == "check"]
    assert check["continue-on-error"] is True
    assert re.search(r"args=\(check \"\$TOPO_PATH\" -f sarif -o \"\$TOPO_SARIF\"\)", check["run"])
    assert "${{" not in check["run"]                # inputs come in through env, not splicing
    upload_index = next(i for i, s in enumerate(steps)
                        if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    upload = steps[upload_index]
    assert "always()" in upload["if"]
    assert upload["with"]["category"] == "${{ inputs.category }}"
    last = steps[-1]
    assert steps.index(check) < upload_index < len(steps) - 1
    assert "always()" in last["if"] and "steps.check.outputs.exit-code" in last["env"]["CODE"]
    assert 'exit "$CODE"' in last["run"]
    assert "security-events: write" in (REPO / "action.yml").read_text()


def test_readme_has_copy_paste_snippets_for_both() -> None:
    readme = (REPO / "README.md").read_text()
    assert "id: topo" in readme and "repos:" in readme
    assert "security-events: write" in readme and "contents: read" in readme
    assert "fetch-depth: 0" in readme
    assert "[tool.topo]" in readme and "Precedence" in readme
