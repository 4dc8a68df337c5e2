"""`[tool.topo]` in pyproject.toml: keys, errors (exit 2), precedence (CLI > config > default)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from topo.audit.config import ConfigError, KEYS, ProjectConfig, load_project_config
from topo.reports.formats import AUDIT_FORMAT_NAMES, AUDIT_FORMATS, audit_format
from topo.audit.model import Severity
from tests.gate.gate_helpers import CHECKS, check, copy_tree, tool_app, topo


def configure(root: Path, text: str) -> Path:
    (root / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.topo]\n{text}\n")
    return root


@pytest.fixture()
def low_only(tmp_path: Path) -> Path:
    """One RETENTION-WINDOW finding (low): a 180-day window against a 90-day retention."""
    return copy_tree(CHECKS / "RETENTION-WINDOW" / "bad_doc_example", tmp_path / "low")


def test_every_key_is_read(tmp_path: Path) -> None:
    (tmp_path / "acme.toml").write_text("")
    configure(tmp_path, 'exclude = ["legacy/**"]\nfail-on = "Medium"\nretention-days = 30\n'
                        'formats = ["json", "SARIF"]\ninclude-tests = true\n'
                        'packs = ["acme.toml"]\nselect = ["emu", "UNGOVERNED-PATH"]\n'
                        'ignore = ["EMU-SCHEMA"]\nexecutor = "local"\n'
                        '[tool.topo.per-file-ignores]\n"scripts/**" = ["HIDDEN-AUTHORITY"]')
    assert load_project_config(tmp_path) == ProjectConfig(
        exclude=("legacy/**",), fail_on=Severity.MEDIUM, formats=("json", "sarif"),
        include_tests=True, retention_days=30, packs=(tmp_path / "acme.toml",),
        select=("EMU", "UNGOVERNED-PATH"), ignore=("EMU-SCHEMA",),
        per_file_ignores=(("scripts/**", ("HIDDEN-AUTHORITY",)),), executor="local",
        source=str(tmp_path / "pyproject.toml"))
    assert set(KEYS) == {"exclude", "fail-on", "formats", "include-tests", "retention-days",
                         "packs", "select", "ignore", "per-file-ignores", "executor"}
    assert AUDIT_FORMAT_NAMES == ("yaml", "html", "md", "sarif", "json")   # the CLI contract
    assert [f.file_name for f in AUDIT_FORMATS] == [f"TOPOLOGY_STATE.{f.name}"
                                                    for f in AUDIT_FORMATS]


def test_the_config_reader_checks_format_names_against_the_list_it_is_given(
        tmp_path: Path) -> None:
    configure(tmp_path, 'formats = ["yaml", "pdf"]')
    assert load_project_config(tmp_path).formats == ("yaml", "pdf")      # shape only
    with pytest.raises(ConfigError, match="unknown format 'pdf' \\(formats: yaml, html"):
        load_project_config(tmp_path, known_formats=AUDIT_FORMAT_NAMES)
    assert audit_format("pdf") is None and audit_format("md").file_name == "TOPOLOGY_STATE.md"


def test_no_pyproject_or_no_table_is_the_defaults(tmp_path: Path) -> None:
    assert load_project_config(tmp_path) == ProjectConfig()
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    assert load_project_config(tmp_path) == ProjectConfig()


@pytest.mark.parametrize("text, message", [
    ('fail_on = "low"', "unknown key 'fail_on' (did you mean 'fail-on'?)"),
    ('severity = "low"', "unknown key 'severity'; known keys: exclude, executor, fail-on"),
    ('fail-on = "severe"', "fail-on: unknown severity 'severe'"),
    ("fail-on = 3", "fail-on: expected a string"),
    ('exclude = "legacy/"', "exclude: expected a list of non-empty strings"),
    ("retention-days = 0", "retention-days: expected a whole number of at least 1"),
    ("retention-days = true", "retention-days: expected a whole number"),
    ('include-tests = "yes"', "include-tests: expected true or false"),
    ('formats = ["pdf"]', "formats: unknown format 'pdf'"),
    ("formats = []", "formats: the list is empty"),
    ("fail-on = ", "not valid TOML"),
])
def test_bad_configuration_is_exit_2_with_the_reason(tmp_path: Path, text: str,
                                                     message: str) -> None:
    root = configure(tool_app(tmp_path / "app"), text)
    for run in (check(root), topo("audit", root, "-o", tmp_path / "out", "--no-cache")):
        assert run.exit_code == 2
        assert message in run.stderr, run.stderr
        assert "[tool.topo]" in run.stderr or "TOML" in run.stderr
        assert "Traceback" not in run.stderr


def test_fail_on_from_config_and_the_cli_overrides_it(low_only: Path) -> None:
    assert check(low_only).exit_code == 0                         # default: high
    configure(low_only, 'fail-on = "low"')
    assert check(low_only).exit_code == 1                         # config
    assert check(low_only, "--fail-on", "high").exit_code == 0    # CLI wins
    assert check(low_only, "-f", "json").json()["gate"]["fail_on"] == "low"


def test_retention_days_from_config_and_the_cli_overrides_it(low_only: Path) -> None:
    configure(low_only, "retention-days = 365")
    assert "0 reported" in check(low_only).stdout                 # 180 days fit in 365
    assert "1 reported" in check(low_only, "--retention-days", "90").stdout


def test_exclude_from_config_and_the_cli_adds_to_it(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    tool_app(root / "legacy")
    tool_app(root / "old")
    assert check(root, "-f", "json").json()["summary"]["findings"] == 3
    configure(root, 'exclude = ["legacy/"]')
    files = {f["file"] for f in check(root, "-f", "json").json()["findings"]}
    assert files == {"app.py", "old/app.py"}
    files = {f["file"] for f in check(root, "-f", "json", "--exclude", "old/").json()["findings"]}
    assert files == {"app.py"}


def test_include_tests_from_config_and_the_cli_overrides_it(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    tool_app(root / "tests")
    assert check(root, "-f", "json").json()["summary"]["findings"] == 1
    configure(root, "include-tests = true")
    assert check(root, "-f", "json").json()["summary"]["findings"] == 2
    assert check(root, "-f", "json", "--no-include-tests").json()["summary"]["findings"] == 1


def test_formats_from_config_and_the_cli_overrides_them(tmp_path: Path) -> None:
    root = configure(tool_app(tmp_path / "app"), 'formats = ["json", "sarif"]')
    out = tmp_path / "out"
    run = topo("audit", root, "-o", out, "--no-cache")
    assert run.exit_code == 0, run.stderr
    assert sorted(p.name for p in out.iterdir()) == ["TOPOLOGY_STATE.json",
                                                      "TOPOLOGY_STATE.sarif"]
    other = tmp_path / "other"
    assert topo("audit", root, "-o", f"{other}/", "-f", "json", "--no-cache").exit_code == 0
    assert sorted(p.name for p in other.iterdir()) == ["TOPOLOGY_STATE.json"]
    assert json.loads((other / "TOPOLOGY_STATE.json").read_text())["schema"] == "topo-audit/2"
