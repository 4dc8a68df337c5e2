"""The Action's steps (`scripts/action.sh`), run here as GitHub would run them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gate.gate_helpers import REPO, tool_app

SCRIPT = REPO / "scripts" / "action.sh"
TOPO = Path(sys.executable).with_name("topo")
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def step(command: str, tmp_path: Path, **environment: str) -> tuple[subprocess.CompletedProcess,
                                                                  dict[str, str]]:
    outputs = tmp_path / "github_output"
    outputs.write_text("")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_OUTPUT": str(outputs),
           "RUNNER_TEMP": str(tmp_path / "runner"), "TOPO_PYTHON": sys.executable,
           **environment}
    (tmp_path / "runner").mkdir(exist_ok=True)
    done = subprocess.run(["bash", str(SCRIPT), command], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    pairs = dict(line.split("=", 1) for line in outputs.read_text().splitlines() if line)
    return done, pairs


def test_check_writes_sarif_and_reports_the_exit_code(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    done, outputs = step("check", tmp_path, TOPO_BIN=str(TOPO), TOPO_PATH=str(root),
                         TOPO_SARIF=str(tmp_path / "topo.sarif"), TOPO_FAIL_ON="critical")
    assert done.returncode == 1, done.stderr
    assert outputs == {"exit-code": "1", "sarif": "true"}
    sarif = json.loads((tmp_path / "topo.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["UNGOVERNED-PATH"]


def test_check_passes_its_inputs_as_arguments(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    done, outputs = step("check", tmp_path, TOPO_BIN=str(TOPO), TOPO_PATH=str(root),
                         TOPO_SARIF=str(tmp_path / "topo.sarif"),
                         TOPO_BASELINE=str(tmp_path / "missing.json"))
    assert done.returncode == 2 and outputs["exit-code"] == "2"
    assert "missing.json: no such file" in done.stderr
    assert "sarif" not in outputs                      # nothing to upload


def _event(tmp_path: Path, head: str) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"pull_request": {"head": {"repo": {"full_name": head}}}}))
    return str(path)


@pytest.mark.parametrize("environment, upload, notice", [
    ({"GITHUB_EVENT_NAME": "push"}, "true", False),
    ({"GITHUB_EVENT_NAME": "pull_request", "HEAD": "acme/agent"}, "true", False),
    ({"GITHUB_EVENT_NAME": "pull_request", "HEAD": "someone/agent"}, "false", True),
    ({"GITHUB_EVENT_NAME": "push", "GITHUB_ACTOR": "dependabot[bot]"}, "false", True),
    ({"GITHUB_EVENT_NAME": "push", "TOPO_UPLOAD": "false"}, "false", False),
], ids=["push", "same-repo-pr", "fork-pr", "dependabot", "upload-off"])
def test_decide_skips_the_upload_on_fork_pull_requests(tmp_path: Path, environment: dict,
                                                       upload: str, notice: bool) -> None:
    environment = dict(environment)
    if "HEAD" in environment:
        environment["GITHUB_EVENT_PATH"] = _event(tmp_path, environment.pop("HEAD"))
    done, outputs = step("decide", tmp_path, GITHUB_REPOSITORY="acme/agent", **environment)
    assert done.returncode == 0, done.stderr
    assert outputs == {"upload": upload}
    assert done.stdout.startswith("::notice title=topo::SARIF upload skipped") is notice


@pytest.mark.parametrize("code, exit_code, message", [
    ("0", 0, ""), ("1", 1, "::error title=topo::topo check exited 1"),
    ("", 2, "::error title=topo::topo check did not run"),
])
def test_verdict_fails_the_job_from_the_check(tmp_path: Path, code: str, exit_code: int,
                                              message: str) -> None:
    done, _ = step("verdict", tmp_path, CODE=code)
    assert done.returncode == exit_code
    assert done.stdout.startswith(message)


def test_install_makes_a_virtualenv_of_its_own(tmp_path: Path) -> None:
    """pip-installs this checkout into $RUNNER_TEMP/topo-venv (needs the package index)."""
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "topology-audit", "test-artifacts", "*.egg-info", "__pycache__"))
    done, outputs = step("install", tmp_path, ACTION_PATH=str(source))
    if done.returncode != 0 and "No matching distribution" in done.stderr + done.stdout:
        pytest.skip("the package index is not reachable from here")
    assert done.returncode == 0, done.stderr
    topo = Path(outputs["topo-bin"])
    assert topo == tmp_path / "runner" / "topo-venv" / "bin" / "topo"
    version = subprocess.run([str(topo), "--version"], capture_output=True, text=True,
                             check=True)
    assert version.stdout.startswith("topo, version")


def test_install_refuses_an_old_python(tmp_path: Path) -> None:
    fake = tmp_path / "python-old"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    done, outputs = step("install", tmp_path, TOPO_PYTHON=str(fake), ACTION_PATH=str(REPO))
    assert done.returncode == 2 and outputs == {}
    assert "needs Python 3.11 or later" in done.stdout
