"""`select` / `ignore` / `per-file-ignores` and `--select` / `--ignore`: which codes are reported.

Semantics (topo.audit.selection): selected (default all), then not ignored, then no per-file
ignore for the finding's file; a finding left out is in no output and counts for nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from topo.audit import codes
from topo.audit.selection import CodeSelection, SelectorError, parse_selectors
from tests.gate.gate_helpers import CHECKS, check, copy_tree, tool_app, topo


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """Four EMU findings (RETENTION-WINDOW the only low one) in emus/emus.jsonl and
    UNGOVERNED-PATH (critical) in app.py and scripts/app.py."""
    root = copy_tree(CHECKS / "RETENTION-WINDOW" / "bad_doc_example", tmp_path / "repo")
    tool_app(root)
    tool_app(root / "scripts")
    return root


def reported(root: Path, *args: object) -> list[tuple[str, str]]:
    run = check(root, "-f", "json", "--exit-zero", *args)
    assert run.exit_code == 0, run.stderr
    return sorted((f["code"], f["file"]) for f in run.json()["findings"])


EMUS = "emus/emus.jsonl"
ALL = [("ACTION-GAP", EMUS), ("GHOST-EVENT", EMUS), ("INVOKE-GAP", EMUS),
       ("RETENTION-WINDOW", EMUS), ("UNGOVERNED-PATH", "app.py"),
       ("UNGOVERNED-PATH", "scripts/app.py")]


def only(*names: str) -> list[tuple[str, str]]:
    return [finding for finding in ALL if finding[0] in names]


def without(*names: str) -> list[tuple[str, str]]:
    return [finding for finding in ALL if finding[0] not in names]


def test_the_fixture_has_six_findings(repo: Path) -> None:
    assert reported(repo) == ALL


@pytest.mark.parametrize("args, expected", [
    (("--select", "UNGOVERNED-PATH"), only("UNGOVERNED-PATH")),
    (("--select", "ungoverned"), only("UNGOVERNED-PATH")),       # a whole-word prefix
    (("--select", "RETENTION-,UNGOVERNED-PATH"), only("RETENTION-WINDOW", "UNGOVERNED-PATH")),
    (("--select", "ALL", "--ignore", "UNGOVERNED"), without("UNGOVERNED-PATH")),
    (("--ignore", "RETENTION-WINDOW,ACTION-GAP"), without("RETENTION-WINDOW", "ACTION-GAP")),
    (("--select", "RETENTION", "--ignore", "RETENTION-WINDOW"), []),  # ignore after select
])
def test_select_and_ignore_on_the_command_line(repo: Path, args: tuple, expected: list) -> None:
    assert reported(repo, *args) == expected


def test_select_and_ignore_in_the_configuration_and_the_cli_over_them(repo: Path) -> None:
    (repo / "topo.toml").write_text('select = ["UNGOVERNED"]\n')
    assert reported(repo) == only("UNGOVERNED-PATH")
    assert reported(repo, "--select", "GHOST-EVENT") == only("GHOST-EVENT")   # replaces
    (repo / "topo.toml").write_text('ignore = ["RETENTION-WINDOW"]\n')
    assert reported(repo) == without("RETENTION-WINDOW")
    assert reported(repo, "--ignore", "UNGOVERNED-PATH") == \
        without("RETENTION-WINDOW", "UNGOVERNED-PATH")                        # adds


def test_per_file_ignores_apply_to_the_findings_of_matching_files(repo: Path) -> None:
    (repo / "topo.toml").write_text('[per-file-ignores]\n"scripts/" = ["UNGOVERNED-PATH"]\n'
                                    '"*.jsonl" = ["EMU-SCHEMA"]\n')
    assert reported(repo) == ALL[:-1]
    (repo / "topo.toml").write_text('[per-file-ignores]\n"emus/*.jsonl" = ["RETENTION"]\n')
    assert reported(repo) == without("RETENTION-WINDOW")
    (repo / "topo.toml").write_text('[per-file-ignores]\n"other/**" = ["ALL"]\n')
    assert reported(repo) == ALL


def test_an_ignored_finding_does_not_fail_the_gate_and_is_not_in_sarif(repo: Path) -> None:
    assert check(repo, "--select", "UNGOVERNED-PATH,RETENTION-WINDOW").exit_code == 1
    run = check(repo, "--select", "UNGOVERNED-PATH,RETENTION-WINDOW",
                "--ignore", "UNGOVERNED-PATH")
    assert run.exit_code == 0, run.stdout
    assert "UNGOVERNED-PATH" not in run.stdout
    assert "1 reported" in run.stdout
    sarif = json.loads(check(repo, "-f", "sarif", "--select", "RETENTION,UNGOVERNED",
                             "--ignore", "UNGOVERNED-PATH").stdout)
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["RETENTION-WINDOW"]
    # every rule stays listed, so alerts the ignored code raised before are closed
    rules = {rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert "UNGOVERNED-PATH" in rules
    audit = topo("audit", repo, "-f", "json", "-o", "-", "--no-cache", "--select", "UNGOVERNED")
    assert [f["code"] for f in json.loads(audit.stdout)["findings"]] == ["UNGOVERNED-PATH"] * 2


def test_a_directive_for_an_ignored_code_is_not_reported_unused(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", body="    # topo: ignore[UNGOVERNED-PATH] -- the path is "
                                           "checked by the sandbox\n    shutil.rmtree(path)")
    def listed(*args: str) -> list[tuple[str, bool]]:
        findings = check(root, "-f", "json", *args).json()["findings"]
        return [(f["code"], f.get("suppressed") is not None) for f in findings]

    assert listed() == [("UNGOVERNED-PATH", True)]
    assert listed("--ignore", "UNGOVERNED-PATH") == []          # no SUPPRESSION-UNUSED
    assert listed("--ignore-suppressions") == [("UNGOVERNED-PATH", False)]


@pytest.mark.parametrize("args, message", [
    (("--select", "UNGOVERNED-PATHS"), "--select: unknown code or prefix 'UNGOVERNED-PATHS' "
                                       "(did you mean 'UNGOVERNED-PATH'?)"),
    (("--ignore", "RETENTION-WINDOW,GHOST-EVNT"), "--ignore: unknown code or prefix "
                                                  "'GHOST-EVNT' (did you mean 'GHOST-EVENT'?)"),
    (("--select", "EMU-SCH"), "--select: unknown code or prefix 'EMU-SCH'"),
    (("--select", " , "), "--select: no code given"),
])
def test_an_unknown_code_on_the_command_line_is_exit_2(repo: Path, args: tuple,
                                                       message: str) -> None:
    for run in (check(repo, *args), topo("audit", repo, "-o", "-", "-f", "json", *args)):
        assert run.exit_code == 2
        assert message in run.stderr, run.stderr
        assert "Traceback" not in run.stderr


@pytest.mark.parametrize("text, message", [
    ('select = ["UNGOVERNED-PATHS"]', "select: unknown code or prefix 'UNGOVERNED-PATHS' "
                                      "(did you mean 'UNGOVERNED-PATH'?)"),
    ('ignore = ["hidden-authorty"]', "ignore: unknown code or prefix 'hidden-authorty' "
                                     "(did you mean 'HIDDEN-AUTHORITY'?)"),
    ("select = []", "select: the list is empty"),
    ('ignore = "EMU"', "ignore: expected a list of non-empty strings"),
    ('per-file-ignores = ["scripts/"]', "per-file-ignores: expected a table"),
    ('[per-file-ignores]\n"scripts/" = "EMU"', "per-file-ignores 'scripts/': expected a list"),
    ('[per-file-ignores]\n"scripts/" = ["EMU-SCEMA"]',
     "per-file-ignores 'scripts/': unknown code or prefix 'EMU-SCEMA' "
     "(did you mean 'EMU-SCHEMA'?)"),
    ('per_file_ignores = {}', "unknown key 'per_file_ignores' (did you mean "
                              "'per-file-ignores'?)"),
])
def test_an_unknown_code_in_the_configuration_is_exit_2(repo: Path, text: str,
                                                        message: str) -> None:
    (repo / "topo.toml").write_text(text + "\n")
    run = check(repo)
    assert run.exit_code == 2
    assert f"{repo / 'topo.toml'} {message}" in run.stderr or \
        f"{repo / 'topo.toml'}: {message}" in run.stderr, run.stderr


def test_selectors_are_codes_whole_word_prefixes_or_all() -> None:
    assert parse_selectors(["emu-", " EMU ", "ALL", "ungoverned-path"], "x") == \
        ("EMU", "ALL", "UNGOVERNED-PATH")
    for bad in ("EMU-SCH", "", "UNGOVERNED-PATH-X", "*"):
        with pytest.raises(SelectorError):
            parse_selectors([bad], "x")
    every = {code.id for code in codes.ALL}
    emu = {c for c in every if c.startswith("EMU-")}
    assert emu == {"EMU-SCHEMA", "EMU-TRIGGER-SYNTAX"}
    assert CodeSelection().select == ("ALL",)
