"""`topo check -f github|junit|gitlab` and the text report's code frame and colours."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.gate.gate_helpers import APPS, check, tool_app
from topo.reports.github_report import escape_data, escape_property

CROSS = APPS / "cross_file"


def test_github_annotations_one_per_finding_then_the_summary() -> None:
    run = check(CROSS, "-f", "github")
    assert run.exit_code == 1
    *annotations, summary = run.stdout.splitlines()
    assert len(annotations) == 2
    first = annotations[0]
    assert first.startswith("::error file=")
    properties, message = first[len("::error "):].split("::", 1)
    fields = dict(pair.split("=", 1) for pair in properties.split(","))
    # Paths are repository-relative: this checkout's path to the app, then the file.
    assert fields["file"].endswith("corpus/apps/cross_file/billing/payments.py")
    assert (fields["line"], fields["col"], fields["title"]) == ("7", "5", "UNGOVERNED-PATH")
    assert message.startswith("[critical] model output from `billing.classifier.assess`")
    assert message.endswith("(topo explain UNGOVERNED-PATH)")
    assert summary.startswith("topo check: failed:")


def test_github_levels_follow_the_threshold(tmp_path: Path) -> None:
    # A directive naming an unknown code: SUPPRESSION-INVALID, low, below the default high.
    root = tool_app(tmp_path / "app", "    shutil.rmtree(path)  # topo: ignore[NO-SUCH-CODE] "
                                      "-- a justification here")
    lines = check(root, "-f", "github").stdout.splitlines()
    levels = sorted((line.split(" ", 1)[0], line.split("title=")[1].split("::")[0])
                    for line in lines if line.startswith("::"))
    assert levels == [("::error", "UNGOVERNED-PATH"), ("::warning", "SUPPRESSION-INVALID")]
    lowered = check(root, "-f", "github", "--fail-on", "low").stdout
    assert lowered.count("::error ") == 2 and "::warning " not in lowered


def test_github_escaping_follows_the_toolkit() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"


def test_github_escapes_a_file_name_with_commas_and_colons(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    (root / "app.py").rename(root / "ops,v1:tools.py")
    [annotation, _] = check(root, "-f", "github").stdout.splitlines()
    assert "file=ops%2Cv1%3Atools.py," in annotation


def test_junit_is_valid_xml_with_one_testcase_per_finding() -> None:
    run = check(CROSS, "-f", "junit")
    assert run.exit_code == 1
    suites = ET.fromstring(run.stdout)
    [suite] = suites.findall("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 2 == int(suite.get("tests")) == int(suite.get("failures"))
    assert [case.get("classname") for case in cases] == ["topo.UNGOVERNED-PATH",
                                                         "topo.HIDDEN-AUTHORITY"]
    failure = cases[0].find("failure")
    assert failure is not None and failure.get("type") == "UNGOVERNED-PATH"
    assert "topo explain UNGOVERNED-PATH" in failure.text


def test_junit_clean_run_has_one_passing_testcase(tmp_path: Path) -> None:
    root = tmp_path / "clean"
    root.mkdir()
    (root / "main.py").write_text("print('hi')\n")
    run = check(root, "-f", "junit")
    assert run.exit_code == 0
    [case] = ET.fromstring(run.stdout).iter("testcase")
    assert list(case) == [] and case.get("name").startswith("topo check: passed")


def test_junit_below_the_threshold_passes_and_unknowns_are_errors(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    (root / "broken.py").write_text("def (:\n")
    run = check(root, "-f", "junit", "--allow-partial", "--exit-zero")
    suite = ET.fromstring(run.stdout).find("testsuite")
    assert (suite.get("failures"), suite.get("errors")) == ("1", "1")
    [error] = suite.iter("error")
    assert error.get("type") == "not-read"


def test_junit_strips_characters_xml_cannot_carry() -> None:
    from topo.reports.junit_report import render_junit

    finding = {"code": "UNGOVERNED-PATH", "severity": "low", "message": "bell\x07 here",
               "file": "a.py", "line": 1, "column": 1, "symbol": "a.f", "fingerprint": "fp1:x"}
    text = render_junit({"gate": {"fail_on": "high"}, "findings": [finding], "unknowns": []},
                        "summary")
    assert "\x07" not in text and "bell\\x07 here" in ET.fromstring(text).find(
        "testsuite/testcase/system-out").text


def test_gitlab_code_quality_report() -> None:
    run = check(CROSS, "-f", "gitlab")
    assert run.exit_code == 1
    issues = json.loads(run.stdout)
    assert [issue["check_name"] for issue in issues] == ["UNGOVERNED-PATH", "HIDDEN-AUTHORITY"]
    first = issues[0]
    assert set(first) >= {"description", "check_name", "fingerprint", "severity", "location"}
    assert first["severity"] == "blocker"            # critical
    assert first["location"]["path"].endswith("corpus/apps/cross_file/billing/payments.py")
    assert first["location"]["lines"] == {"begin": 7}
    assert first["fingerprint"].startswith("fp1:")
    assert len({issue["fingerprint"] for issue in issues}) == 2


def test_gitlab_leaves_out_suppressed_findings(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", "    shutil.rmtree(path)  # topo: ignore[UNGOVERNED-PATH]"
                                      " -- scratch space only")
    assert json.loads(check(root, "-f", "gitlab").stdout) == []


# Text: the code frame, the explain hint, colours.

def test_text_has_a_code_frame_with_a_caret_under_the_span(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    lines = check(root).stdout.splitlines()
    assert lines[0].endswith("app.py:9:5: UNGOVERNED-PATH [critical] the model, through tool "
                             "`purge_workspace`, reaches `shutil.rmtree` (deletion) with no "
                             "enforced authority check on the path")
    assert lines[1:4] == ["  9 |     shutil.rmtree(path)",
                          "    |     ^^^^^^^^^^^^^^^^^^^",
                          "  help: topo explain UNGOVERNED-PATH"]


def test_the_frame_shows_control_characters_escaped(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", '    shutil.rmtree(path)  # \x1b[2J cleared')
    frame = check(root).stdout.splitlines()[1]
    assert "\x1b" not in frame and "\\x1b[2J cleared" in frame


def test_the_frame_reads_nothing_outside_the_root(tmp_path: Path) -> None:
    from topo.analyzers.model import Location
    from topo.reports.code_frame import SourceLines

    (tmp_path / "secret.py").write_text("password = 1\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "link.py").symlink_to(tmp_path / "secret.py")
    assert SourceLines(root).lines("link.py") is None
    assert SourceLines(root).lines("../secret.py") is None
    assert Location("x.py", 1)   # (a location outside the file gives no frame)


@pytest.mark.parametrize("args, environment, coloured", [
    ((), {}, False),                                     # not a terminal
    ((), {"FORCE_COLOR": "1"}, True),
    ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),  # NO_COLOR wins over FORCE_COLOR
    (("--color", "always"), {"NO_COLOR": "1"}, True),    # the option wins over both
    (("--color", "never"), {"FORCE_COLOR": "1"}, False),
])
def test_colour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple,
                environment: dict, coloured: bool) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    root = tool_app(tmp_path / "app")
    run = check(root, *args)
    assert ("\x1b[" in run.stdout) is coloured
    if coloured:
        assert run.stdout.splitlines()[-1].startswith("topo check: failed")


def test_only_text_is_coloured(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    for fmt in ("json", "sarif", "github", "junit", "gitlab"):
        assert "\x1b[" not in check(root, "-f", fmt, "--color", "always").stdout
