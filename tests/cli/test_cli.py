"""The CLI contract: outputs and exit codes of every implemented command, and no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from topo import __version__
from topo.audit import codes
from topo.cli.main import cli
from topo.audit.dsl.diagnostics import DSL_CODES

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
NOW = "2026-11-30T12:00:00Z"


def run(*args: str, stdin: str | None = None):
    result = CliRunner().invoke(cli, list(args), input=stdin)
    # Click reports exceptions in result.exception; a traceback would be a bug for any input.
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"command raised {result.exception!r}") from result.exception
    return result


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert __version__ in result.output


# ---- trigger check -------------------------------------------------------------------------

def test_check_valid_exits_0() -> None:
    result = run("trigger", "check", "state.user.tier == 'premium' AND tag.intent EXISTS")
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout


def test_check_invalid_exits_1_with_code_column_and_caret() -> None:
    result = run("trigger", "check", 'state.user.tier == "premium"')
    assert result.exit_code == 1
    assert "DSL-DOUBLE-QUOTE" in result.stderr
    assert "1:20:" in result.stderr
    assert "^" in result.stderr


def test_check_reads_stdin_and_file(tmp_path: Path) -> None:
    assert run("trigger", "check", "-", stdin="state.a.b EXISTS\n").exit_code == 0
    path = write(tmp_path, "t.dsl", "state.a.b EXISTS\n  AND tag.k == 'x'\n")
    assert run("trigger", "check", f"@{path}").exit_code == 0


def test_check_missing_file_is_usage_error(tmp_path: Path) -> None:
    result = run("trigger", "check", f"@{tmp_path / 'nope.dsl'}")
    assert result.exit_code == 2
    assert "no such file" in result.stderr


# ---- trigger eval --------------------------------------------------------------------------

@pytest.mark.parametrize(("expr", "expected"), [
    ("NOT state.user.banned", "true"),
    ("state.user.verified == true", "false"),
    ("state.user.verified EXISTS AND NOT state.user.verified", "false"),
    ("COUNT event.user.failed.login IN 'PT0.5S' == 0", "true"),
])
def test_eval_on_empty_context(expr: str, expected: str) -> None:
    result = run("trigger", "eval", expr, "--context", str(CORPUS / "contexts/empty.json"),
                 "--now", NOW)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == expected


def test_eval_counts_events_in_window() -> None:
    ctx = str(CORPUS / "contexts/failed_logins.json")
    inside = run("trigger", "eval", "COUNT event.user.failed.login IN 'PT15M' >= 2",
                 "--context", ctx, "--now", NOW)
    assert (inside.exit_code, inside.stdout.strip()) == (0, "true")
    three = run("trigger", "eval", "COUNT event.user.failed.login IN 'PT15M' >= 3",
                "--context", ctx, "--now", NOW)
    assert (three.exit_code, three.stdout.strip()) == (0, "false")


def test_eval_invalid_trigger_exits_1(tmp_path: Path) -> None:
    ctx = write(tmp_path, "ctx.json", "{}")
    result = run("trigger", "eval", "state.tier == 'x'", "--context", str(ctx))
    assert result.exit_code == 1
    assert "DSL-STATE-KEY-SEGMENTS" in result.stderr


def test_eval_bad_context_json_is_error_with_location(tmp_path: Path) -> None:
    ctx = write(tmp_path, "ctx.json", '{"state": {"a.b": 1,}}')
    result = run("trigger", "eval", "state.a.b == 1", "--context", str(ctx))
    assert result.exit_code == 2
    assert "invalid JSON" in result.stderr and ":1:" in result.stderr


def test_eval_context_of_wrong_shape_is_error(tmp_path: Path) -> None:
    ctx = write(tmp_path, "ctx.json", '{"state": ["not", "an", "object"]}')
    result = run("trigger", "eval", "state.a.b == 1", "--context", str(ctx))
    assert result.exit_code == 2
    assert "state" in result.stderr


def test_eval_unreadable_context_is_error(tmp_path: Path) -> None:
    result = run("trigger", "eval", "state.a.b == 1", "--context", str(tmp_path / "missing.json"))
    assert result.exit_code == 2
    assert "no such file" in result.stderr


def test_eval_bad_now_is_error(tmp_path: Path) -> None:
    ctx = write(tmp_path, "ctx.json", "{}")
    result = run("trigger", "eval", "state.a.b == 1", "--context", str(ctx), "--now", "yesterday")
    assert result.exit_code == 2
    assert "ISO-8601" in result.stderr


def test_eval_evaluation_error_exits_3(tmp_path: Path) -> None:
    ctx = write(tmp_path, "ctx.json", '{"state": {"a.b": "abc", "a.c": 2}}')
    result = run("trigger", "eval", "state.a.b + state.a.c > 1", "--context", str(ctx))
    assert result.exit_code == 3
    assert "evaluation error" in result.stderr


# ---- trigger deps / fmt --------------------------------------------------------------------

def test_deps_text_and_json() -> None:
    expr = ("state.customer.id EXISTS AND NOT event.customer.received.refund "
            "WHERE customer_id == '{{customer.id}}' IN 'P30D'")
    text = run("trigger", "deps", expr)
    assert text.exit_code == 0
    assert "customer.received.refund" in text.stdout and "negative" in text.stdout
    data = json.loads(run("trigger", "deps", expr, "-f", "json").stdout)
    event = next(d for d in data if d["kind"] == "event")
    assert event["polarity"] == "negative"
    assert event["where_attrs"] == ["customer_id"]
    assert event["templates"] == ["customer.id"]
    state = next(d for d in data if d["kind"] == "state")
    assert state["key"] == "customer.id" and state["guarded"] is True


def test_fmt_canonical_form() -> None:
    result = run("trigger", "fmt", "state.a.b==1   AND(tag.k=='x' OR tag.k=='y')")
    assert result.exit_code == 0
    assert result.stdout.strip() == "state.a.b == 1 AND (tag.k == 'x' OR tag.k == 'y')"


def test_fmt_invalid_exits_1() -> None:
    assert run("trigger", "fmt", "state.a.b == 1 and tag.k").exit_code == 1


# ---- emus validate -------------------------------------------------------------------------

def test_emus_validate_clean_exits_0() -> None:
    result = run("emus", "validate", str(CORPUS / "emus/clean"))
    assert result.exit_code == 0, result.output
    assert "0 findings" in result.stderr


def test_emus_validate_defects_exits_1_with_file_line_code() -> None:
    result = run("emus", "validate", str(CORPUS / "emus/defects"))
    assert result.exit_code == 1, result.output
    lines = result.stdout.strip().splitlines()
    assert lines
    for line in lines:
        location, code = line.split(": ")[0], line.split(": ")[1].split(" ")[0]
        file, lineno = location.rsplit(":", 1)
        assert file.endswith(".jsonl") and int(lineno) >= 1
        assert codes.by_id(code) is not None, line


def test_emus_validate_json_document() -> None:
    result = run("emus", "validate", str(CORPUS / "emus/defects"), "-f", "json")
    data = json.loads(result.stdout)
    assert data["schema"] == "topo-emus/1"
    assert data["findings"] and all({"code", "file", "line", "emu_key"} <= set(f)
                                    for f in data["findings"])


def test_emus_validate_missing_directory_exits_2(tmp_path: Path) -> None:
    result = run("emus", "validate", str(tmp_path / "nope"))
    assert result.exit_code == 2


def test_emus_validate_bad_json_exits_2_and_names_line(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl",
          '{"emu_key": "a.ok", "trigger": "state.a.b EXISTS", "action": '
          '{"type": "context_directive", "directive": "x"}, "expected_utility": 0.5, '
          '"confidence": 0.5}\n{not json}\n')
    result = run("emus", "validate", str(tmp_path))
    assert result.exit_code == 2
    assert "emus.jsonl:2" in result.stderr
    assert "partial" in result.stderr


# ---- explain -------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [c.id for c in codes.ALL])
def test_explain_every_finding_code(code: str) -> None:
    result = run("explain", code)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"# {code}:")


@pytest.mark.parametrize("code", sorted(DSL_CODES))
def test_explain_every_dsl_code(code: str) -> None:
    result = run("explain", code.lower())
    assert result.exit_code == 0
    assert code in result.stdout and DSL_CODES[code].example in result.stdout


def test_explain_unknown_code_exits_2() -> None:
    result = run("explain", "NO-SUCH-CODE")
    assert result.exit_code == 2
    assert "unknown code" in result.stderr


def test_explain_list() -> None:
    result = run("explain", "--list")
    assert result.exit_code == 0
    assert all(code.id in result.stdout for code in codes.ALL)
