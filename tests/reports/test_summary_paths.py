"""The summary's `consequential_paths` counts call chains from an entry to an executor that
model output shapes, once per entry and executor (seed 000: "every path from a proposal to a
consequential effect"), not only executors whose arguments carry model output."""

from __future__ import annotations

from pathlib import Path

from topo.audit.pipeline import AuditRequest, run_audit

TOOLS = '''import shutil

from agents import Agent, function_tool


def wipe(path: str) -> None:
    shutil.rmtree(path)


@function_tool
def reset_workspace() -> str:
    """The model decides when; the path is fixed."""
    wipe("/srv/workspace")
    return "reset"


@function_tool
def reset_cache() -> str:
    wipe("/srv/cache")
    return "reset"


def nightly() -> None:
    wipe("/srv/tmp")


agent = Agent(name="ops", tools=[reset_workspace, reset_cache])
'''


def test_each_model_invoked_entry_to_an_effect_is_a_path(tmp_path: Path) -> None:
    (tmp_path / "ops.py").write_text(TOOLS)
    summary = run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None)).summary
    # Two tools reach the one rmtree; the nightly job reaches it too, but no model shapes it.
    assert summary.consequential_paths == 2


def test_no_model_no_path(tmp_path: Path) -> None:
    (tmp_path / "ops.py").write_text("import shutil\n\n\ndef nightly():\n"
                                     "    shutil.rmtree('/srv/tmp')\n")
    assert run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None)) \
        .summary.consequential_paths == 0
