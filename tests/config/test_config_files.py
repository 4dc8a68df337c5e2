"""Where the configuration comes from: `--config FILE`, else the closest `topo.toml`,
`.topo.toml` or `pyproject.toml` with `[tool.topo]` at or above the audited directory, up to the
top of the git work tree. The closest file wins; files are not merged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from topo.audit.config import ConfigError, find_config_file, load_project_config
from tests.gate.gate_helpers import APPS, check, copy_tree, tool_app


@pytest.fixture()
def ts_repo(tmp_path: Path) -> Path:
    """A TypeScript-only repository (no pyproject.toml): UNGOVERNED-PATH (high) and
    ADVISORY-ONLY-POLICY (medium) on one line."""
    root = copy_tree(APPS / "vercel_email_unchecked", tmp_path / "ts")
    assert not (root / "pyproject.toml").exists()
    return root


def test_a_typescript_repository_is_configured_by_topo_toml(ts_repo: Path) -> None:
    assert check(ts_repo).exit_code == 1
    (ts_repo / "topo.toml").write_text('fail-on = "critical"\n')
    assert check(ts_repo).exit_code == 0
    (ts_repo / "topo.toml").write_text('ignore = ["UNGOVERNED-PATH"]\nfail-on = "medium"\n')
    run = check(ts_repo)
    assert run.exit_code == 1 and "ADVISORY-ONLY-POLICY" in run.stdout
    assert "UNGOVERNED-PATH" not in run.stdout
    (ts_repo / "topo.toml").write_text('fail_on = "critical"\n')
    run = check(ts_repo)
    assert run.exit_code == 2
    assert f"{ts_repo / 'topo.toml'}: unknown key 'fail_on' (did you mean 'fail-on'?)" \
        in run.stderr


def test_the_dotfile_is_read_too_and_topo_toml_wins_in_one_directory(ts_repo: Path) -> None:
    (ts_repo / ".topo.toml").write_text('fail-on = "critical"\n')
    assert check(ts_repo).exit_code == 0
    (ts_repo / "pyproject.toml").write_text('[tool.topo]\nfail-on = "low"\n')
    assert find_config_file(ts_repo) == ts_repo / ".topo.toml"
    assert check(ts_repo).exit_code == 0                    # .topo.toml over pyproject.toml
    (ts_repo / "topo.toml").write_text('fail-on = "medium"\n')
    assert find_config_file(ts_repo) == ts_repo / "topo.toml"
    assert check(ts_repo).exit_code == 1                    # topo.toml over both


def test_the_closest_file_wins_and_files_are_not_merged(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    service = tool_app(repo / "services" / "ops")
    (repo / "topo.toml").write_text('ignore = ["UNGOVERNED-PATH"]\nretention-days = 30\n')
    assert find_config_file(service) == repo / "topo.toml"
    assert check(service).exit_code == 0                    # found two levels up
    (service / "pyproject.toml").write_text("[project]\nname = 'ops'\n")   # no [tool.topo]
    assert find_config_file(service) == repo / "topo.toml"
    assert check(service).exit_code == 0
    (service / "pyproject.toml").write_text("[project]\nname = 'ops'\n[tool.topo]\n"
                                            "include-tests = false\n")
    assert find_config_file(service) == service / "pyproject.toml"
    assert check(service).exit_code == 1                    # root's ignore is not merged in
    assert load_project_config(service).retention_days is None


def test_the_search_stops_at_the_top_of_the_work_tree(tmp_path: Path) -> None:
    (tmp_path / "topo.toml").write_text('ignore = ["UNGOVERNED-PATH"]\n')
    repo = tool_app(tmp_path / "repo")
    assert find_config_file(repo) == tmp_path / "topo.toml"    # no work tree: goes on up
    assert check(repo).exit_code == 0
    (repo / ".git").write_text("gitdir: /elsewhere\n")         # a worktree's .git file
    assert find_config_file(repo) is None
    assert check(repo).exit_code == 1
    (repo / ".git").unlink()
    (repo / ".git").mkdir()
    (repo / "sub").mkdir()
    assert find_config_file(repo / "sub") is None


def test_config_names_the_file_and_skips_the_search(tmp_path: Path, ts_repo: Path) -> None:
    (ts_repo / "topo.toml").write_text('fail-on = "low"\n')
    strict = tmp_path / "ci.toml"
    strict.write_text('fail-on = "critical"\n')
    assert check(ts_repo, "--config", strict).exit_code == 0
    project = tmp_path / "pyproject.toml"
    project.write_text('[tool.topo]\nfail-on = "critical"\n')
    assert check(ts_repo, "--config", project).exit_code == 0     # its [tool.topo] table
    assert check(ts_repo).exit_code == 1
    assert check(ts_repo, "--fail-on", "critical", "--config", ts_repo / "topo.toml"
                 ).exit_code == 0                                  # the CLI over the file


@pytest.mark.parametrize("write, message", [
    (None, "ci.toml: no such configuration file"),
    ("[project]\nname = 'x'\n", "pyproject.toml: no [tool.topo] table"),
    ("fail-on = ", "not valid TOML"),
])
def test_a_bad_config_file_is_exit_2(tmp_path: Path, ts_repo: Path, write: str | None,
                                     message: str) -> None:
    name = "pyproject.toml" if "project" in (write or "") else "ci.toml"
    path = tmp_path / name
    if write is not None:
        path.write_text(write)
    run = check(ts_repo, "--config", path)
    assert run.exit_code == 2
    assert message in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_paths_in_a_parent_config_resolve_from_the_file_and_the_audited_root(
        tmp_path: Path) -> None:
    """`packs` are relative to the config file; `exclude`/`per-file-ignores` globs match
    paths relative to the audited directory (the paths the reports show)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    service = tool_app(repo / "services" / "ops")
    tool_app(service / "legacy")
    (repo / "topo.toml").write_text('exclude = ["legacy/"]\n')
    files = [f["file"] for f in check(service, "-f", "json").json()["findings"]]
    assert files == ["app.py"]
    (repo / "topo.toml").write_text('packs = ["nowhere.toml"]\n')
    run = check(service)
    assert run.exit_code == 2 and f"paths are relative to {repo}" in run.stderr, run.stderr


def test_the_reader_refuses_a_fifo_config_without_blocking(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "repo")
    os.mkfifo(root / "topo.toml")
    with pytest.raises(ConfigError, match="topo.toml: cannot be read: not a regular file"):
        load_project_config(root)
    assert load_project_config(tmp_path / "missing") == load_project_config(tmp_path / "x")


def test_executor_key_is_read_and_checked(tmp_path) -> None:
    from topo.audit.config import ConfigError, load_project_config
    import pytest as _pytest
    (tmp_path / "topo.toml").write_text('executor = "dask://scheduler:8786"\n')
    assert load_project_config(tmp_path).executor == "dask://scheduler:8786"
    (tmp_path / "topo.toml").write_text('executor = "ssh://box"\n')
    with _pytest.raises(ConfigError, match="executor: unknown executor"):
        load_project_config(tmp_path)
