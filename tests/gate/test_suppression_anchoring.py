"""In-source suppressions: statement anchoring, justification, unused, --ignore-suppressions."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.model import SuppressionKind
from topo.audit.pipeline import AuditRequest, run_audit
from topo.audit.suppressions import MIN_JUSTIFICATION
from tests.gate.gate_helpers import APPS, CHECKS, check, copy_tree, tool_app

WHY = "-- the path is a scratch directory this session created"
# A formatter-split call: the statement spans lines 9-12 of the tool app.
SPLIT = """    shutil.rmtree(
        path,
        ignore_errors=True,
    ){last}"""


def audit(root: Path, **options: bool):
    return run_audit(AuditRequest(root=root, jobs=1, cache_dir=None, **options)).findings


def by_code(findings, code: str):
    return [f for f in findings if f.code.id == code]


@pytest.mark.parametrize("body", [
    f"    # topo: ignore[UNGOVERNED-PATH] {WHY}\n" + SPLIT.format(last=""),      # line above
    SPLIT.format(last=f"  # topo: ignore[UNGOVERNED-PATH] {WHY}"),             # last line
    SPLIT.format(last="").replace("path,\n", f"path,  # topo: ignore[UNGOVERNED-PATH] {WHY}\n"),
], ids=["line-above-first", "last-line", "middle-line"])
def test_a_directive_anywhere_on_a_split_statement_suppresses_it(tmp_path: Path,
                                                                body: str) -> None:
    findings = audit(tool_app(tmp_path / "app", body))
    [finding] = by_code(findings, "UNGOVERNED-PATH")
    assert finding.suppression is not None
    assert finding.suppression.kind is SuppressionKind.IN_SOURCE
    assert finding.suppression.justification == WHY.removeprefix("-- ")
    assert [f.code.id for f in findings] == ["UNGOVERNED-PATH"]   # nothing invalid or unused
    assert check(tmp_path / "app").exit_code == 0


def test_two_lines_above_is_too_far(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", f"    # topo: ignore[UNGOVERNED-PATH] {WHY}\n\n"
                                      + SPLIT.format(last=""))
    findings = audit(root)
    [finding] = by_code(findings, "UNGOVERNED-PATH")
    assert finding.suppression is None
    [unused] = by_code(findings, "SUPPRESSION-UNUSED")
    assert unused.location.line == 9
    assert check(root).exit_code == 1


def test_a_directive_trailing_the_previous_statement_does_not_cover_the_next(
        tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", f"    print(path)  # topo: ignore[UNGOVERNED-PATH] {WHY}\n"
                                      "    shutil.rmtree(path)")
    findings = audit(root)
    assert by_code(findings, "UNGOVERNED-PATH")[0].suppression is None
    assert [f.location.line for f in by_code(findings, "SUPPRESSION-UNUSED")] == [9]


@pytest.mark.parametrize("directive, reason", [
    ("# topo: ignore[UNGOVERNED-PATH]", "has no justification after `--`"),
    ("# topo: ignore[UNGOVERNED-PATH] --", "has no justification after `--`"),
    ("# topo: ignore[UNGOVERNED-PATH] -- ok", f"shorter than {MIN_JUSTIFICATION} characters"),
    (f"# topo: ignore[UNGOVERNED-PATHS] {WHY}", "names unknown code UNGOVERNED-PATHS"),
    (f"# topo: ignore {WHY}", "does not follow the form"),
    (f"# topo:ignore UNGOVERNED-PATH {WHY}", "does not follow the form"),
    (f"# TOPO: IGNORE[UNGOVERNED-PATH] {WHY}", "does not follow the form"),
    (f"# topo: ignore[SUPPRESSION-UNUSED] {WHY}", "cannot suppress SUPPRESSION-UNUSED"),
])
def test_an_invalid_directive_suppresses_nothing_and_is_reported(
        tmp_path: Path, directive: str, reason: str) -> None:
    root = tool_app(tmp_path / "app", f"    shutil.rmtree(path)  {directive}")
    findings = audit(root)
    assert by_code(findings, "UNGOVERNED-PATH")[0].suppression is None
    [invalid] = by_code(findings, "SUPPRESSION-INVALID")
    assert reason in invalid.message
    assert (invalid.location.line, invalid.severity.value) == (9, "low")
    assert invalid.symbol == "app.purge_workspace"
    assert not by_code(findings, "SUPPRESSION-UNUSED")
    assert check(root).exit_code == 1


@pytest.mark.parametrize("comment", [
    "# see the topo: ignore[UNGOVERNED-PATH] docs before adding one",    # prose, not a directive
    "# nothing to do with topo",
])
def test_comments_that_merely_mention_topo_are_not_directives(tmp_path: Path,
                                                              comment: str) -> None:
    findings = audit(tool_app(tmp_path / "app", f"    shutil.rmtree(path)  {comment}"))
    assert [f.code.id for f in findings] == ["UNGOVERNED-PATH"]
    assert findings[0].suppression is None


def test_a_directive_after_another_tools_pragma_counts(tmp_path: Path) -> None:
    findings = audit(tool_app(tmp_path / "app", f"    shutil.rmtree(path)  # noqa: S108  "
                                                f"# topo: ignore[UNGOVERNED-PATH] {WHY}"))
    assert [f.code.id for f in findings] == ["UNGOVERNED-PATH"]
    assert findings[0].suppression is not None


def test_several_codes_and_only_truly_unused_ones_reported(tmp_path: Path) -> None:
    root = copy_tree(CHECKS / "HIDDEN-AUTHORITY" / "bad_confidence", tmp_path / "app")
    app = root / "app.py"
    # On the `if` header: covers HIDDEN-AUTHORITY there, not the UNGOVERNED-PATH in its body.
    app.write_text(app.read_text().replace(
        "  # EXPECT: HIDDEN-AUTHORITY",
        f"  # topo: ignore[HIDDEN-AUTHORITY, UNGOVERNED-PATH] {WHY}"))
    findings = audit(root)
    assert by_code(findings, "HIDDEN-AUTHORITY")[0].suppression is not None
    assert by_code(findings, "UNGOVERNED-PATH")[0].suppression is None
    [unused] = by_code(findings, "SUPPRESSION-UNUSED")
    assert "covers no UNGOVERNED-PATH finding" in unused.message
    assert "HIDDEN-AUTHORITY finding" not in unused.message


def test_ignore_suppressions_reports_everything(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", f"    # topo: ignore[UNGOVERNED-PATH] {WHY}\n"
                                      "    shutil.rmtree(path)")
    assert check(root).exit_code == 0
    run = check(root, "--ignore-suppressions")
    assert run.exit_code == 1
    assert "app.py:10:5: UNGOVERNED-PATH [critical]" in run.stdout
    findings = audit(root, ignore_suppressions=True)
    assert [f.code.id for f in findings] == ["UNGOVERNED-PATH"]   # still used, not "unused"
    assert findings[0].suppression is None
    document = check(root, "--ignore-suppressions", "-f", "json").json()
    assert document["gate"]["ignore_suppressions"] is True
    assert "suppressed" not in document["findings"][0]


def test_suppressed_findings_stay_in_json_marked(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", f"    # topo: ignore[UNGOVERNED-PATH] {WHY}\n"
                                      "    shutil.rmtree(path)")
    run = check(root, "-f", "json")
    assert run.exit_code == 0
    [finding] = run.json()["findings"]
    assert finding["suppressed"] == {
        "kind": "inSource", "justification": WHY.removeprefix("-- "),
        "location": {"file": "app.py", "line": 9, "column": 5, "end_line": 9,
                     "end_column": 5 + len(f"# topo: ignore[UNGOVERNED-PATH] {WHY}")}}
    text = check(root)
    assert "UNGOVERNED-PATH" not in text.stdout and "1 suppressed in source" in text.stdout


def test_a_directive_does_not_change_the_fingerprint(tmp_path: Path) -> None:
    plain = audit(tool_app(tmp_path / "a"))
    suppressed = audit(tool_app(tmp_path / "b", f"    shutil.rmtree(path)  "
                                                f"# topo: ignore[UNGOVERNED-PATH] {WHY}"))
    assert plain[0].fingerprint == suppressed[0].fingerprint


def test_typescript_line_comments_suppress(tmp_path: Path) -> None:
    root = copy_tree(APPS / "vercel_email_unchecked", tmp_path / "app")
    route = root / "app" / "api" / "chat" / "route.ts"
    [before] = [f for f in audit(root) if f.code.id == "UNGOVERNED-PATH"]
    assert before.suppression is None
    route.write_text(route.read_text().replace(
        "          await transporter.sendMail(",
        "          // topo: ignore[UNGOVERNED-PATH] -- recipients are checked by the SMTP relay\n"
        "          await transporter.sendMail("))
    [after] = [f for f in audit(root) if f.code.id == "UNGOVERNED-PATH"]
    assert after.suppression is not None
    assert after.suppression.justification == "recipients are checked by the SMTP relay"
