"""Hostile EMU files and triggers (issue #16, cases 5, 6, 7, 8, 12, 15): each is a one-line
error with its location and a documented exit code, never an internal error, and the healthy
EMUs beside it are still read."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from topo.analyzers.model import Location
from topo.audit import fuzz as fuzzer
from topo.audit import policy
from topo.audit.dsl import EvalContext, EvaluationError, evaluate, parse_trigger, render
from topo.audit.dsl.ast import StateRef, StringLit, StrOp
from topo.audit.progress import TerminalProgress
from tests.hostile.policy_helpers import NOW, assert_clean_failure, emu, run, write_emus

BIG = "9" * 5000                                   # past Python's 4,300-digit str/int limit
BOMB = "(?:a{65535}){65535}"                        # parses in `re`, explodes in `regex`
ENTRY = "import sys; from topo.cli import main; sys.argv[0] = 'topo'; main()"
TRIGGERS = {
    "big-int": (f"state.order.total > {BIG}", "1:21: error DSL-NUMBER-TOO-LONG"),
    "big-decimal": (f"state.order.total > 0.{BIG}", "1:21: error DSL-NUMBER-TOO-LONG"),
    "regex-bomb": (f"state.user.code MATCHES '{BOMB}'", "1:25: error DSL-REGEX-TOO-COSTLY"),
    "huge-duration": ("event.user.failed.login IN 'P999999999999D'",
                      "1:28: error DSL-DURATION-INVALID: 'P999999999999D' is longer than"),
    "surrogate": ("state.user.tier == 'x\ud800'", "1:22: error DSL-UNEXPECTED-CHARACTER"),
}


# ---- triggers: check / fmt / deps / eval ---------------------------------------------------

@pytest.mark.parametrize("command", ["check", "fmt", "deps"])
@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_hostile_trigger_is_a_dsl_diagnostic(command: str, name: str) -> None:
    text, message = TRIGGERS[name]
    result = run("trigger", command, text)
    assert_clean_failure(result, 1)
    assert result.stderr.startswith(message), result.stderr


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_hostile_trigger_is_refused_by_eval_before_evaluating(name: str, tmp_path: Path) -> None:
    context = tmp_path / "ctx.json"
    context.write_text('{"state": {"user.code": "aaa"}}', encoding="utf-8")
    result = run("trigger", "eval", TRIGGERS[name][0], "--context", str(context), "--now", NOW)
    assert_clean_failure(result, 1)
    assert result.stderr.startswith(TRIGGERS[name][1]), result.stderr


def test_the_rendered_surrogate_diagnostic_is_utf8_text() -> None:
    text = "state.user.tier == 'x\ud800'"
    rendered = render(text, parse_trigger(text).errors[0])
    rendered.encode("utf-8")  # raises on a lone surrogate
    assert "'x\ufffd'" in rendered and "^" in rendered


def test_evaluating_a_regex_bomb_is_an_evaluation_error_not_a_compile() -> None:
    # An AST built without the parser (as the fuzzer's strategies do) still meets the check.
    ast = StrOp("MATCHES", StateRef("user.code"), StringLit(BOMB))
    context = EvalContext(state={"user.code": "aaa"}, tags={}, events=(),
                          now=datetime(2026, 11, 30, tzinfo=UTC))
    with pytest.raises(EvaluationError, match="too costly to compile"):
        evaluate(ast, context)


def test_regex_bomb_in_bounded_time_and_memory(tmp_path: Path) -> None:
    """The CLI in a subprocess capped at 1 GiB of address space and 60 s: before the cost
    check, `trigger eval` grew to 23.5 GB."""
    context = tmp_path / "ctx.json"
    context.write_text('{"state": {"user.code": "aaa"}}', encoding="utf-8")
    folder = write_emus(tmp_path / "emus", emu("a.bomb", f"state.user.code MATCHES '{BOMB}'"))
    limit = 1 << 30

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    for args in (["trigger", "eval", f"state.user.code MATCHES '{BOMB}'", "--context",
                  str(context)], ["fuzz", str(folder)]):
        done = subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True,
                              text=True, timeout=60, preexec_fn=cap, check=False)
        assert done.returncode in (1, 2), done.stderr
        assert "DSL-REGEX-TOO-COSTLY" in done.stderr or "too costly to compile" in done.stderr
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr


# ---- EMU lines: deep JSON, big numbers, surrogates -----------------------------------------

EMU_LINES = {
    "deep-json": ('{"emu_key": "a.deep", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
                  "x.jsonl:1: error: Invalid JSON in {dir}/x.jsonl:1: nests deeper than 64 "
                  "levels (column 91)"),
    "big-json-int": ('{"emu_key": "a.big", "confidence": ' + BIG + "}",
                     "x.jsonl:1: error: Invalid JSON in {dir}/x.jsonl:1: a number of 5000 "
                     "digits; the limit is 100"),
    "lone-surrogate": ('{"emu_key": "a.\\ud800", "decision_point": "refund"}',
                       "x.jsonl:1: error: line holds a lone surrogate escape `\\ud800` "
                       "(column 16), which is not Unicode text"),
    "big-int-in-trigger": (json.dumps(emu("a.big", f"state.order.total > {BIG}")),
                           "DSL-NUMBER-TOO-LONG"),
}


@pytest.mark.parametrize("name", sorted(EMU_LINES))
def test_hostile_emu_line_is_an_error_with_its_location(name: str, tmp_path: Path) -> None:
    line, message = EMU_LINES[name]
    folder = write_emus(tmp_path / "emus", line, emu("b.healthy"))
    result = run("emus", "validate", str(folder))
    assert result.exit_code in (1, 2), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert message.format(dir=folder.as_posix()) in result.output, result.output
    assert "b.healthy" in result.output  # the next line is still read and checked


def test_a_valid_surrogate_pair_is_still_text(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", '{"emu_key": "a.\\ud83d\\ude00"}')
    loaded = policy.load_emus(folder)
    assert loaded.errors == () and loaded.emus[0].emu_key == "a.\U0001f600"


@pytest.mark.parametrize("name", ["deep-json", "big-json-int", "lone-surrogate"])
@pytest.mark.parametrize("command", ["audit", "check"])
def test_hostile_emu_line_makes_audit_and_check_partial_not_crash(name: str, command: str,
                                                                  tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n", encoding="utf-8")
    write_emus(tmp_path / "emus", EMU_LINES[name][0], emu("b.healthy"))
    args = ["-f", "md", "-o", "-"] if command == "audit" else []
    result = run(command, str(tmp_path), *args)
    # `audit` writes its report and says it is partial (exit 0); `check` has no verdict (2).
    assert_clean_failure(result, 0 if command == "audit" else 2)
    assert "emus/x.jsonl:1" in result.output, result.output
    assert "partial result" in result.output or "incomplete" in result.output


@pytest.mark.parametrize("name", sorted(EMU_LINES))
def test_fuzz_reports_the_hostile_line_and_fuzzes_nothing(name: str, tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", EMU_LINES[name][0], emu("b.healthy"))
    result = run("fuzz", str(folder))
    assert_clean_failure(result, 2)
    assert "x.jsonl:1" in result.stderr and "nothing was fuzzed" in result.stderr


def test_fuzz_on_a_huge_duration_is_a_diagnostic_not_an_overflow(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu("a.old", TRIGGERS["huge-duration"][0]))
    result = run("fuzz", str(folder))
    assert_clean_failure(result, 2)
    assert "x.jsonl:1: a.old: trigger does not parse: 'P999999999999D' is longer" in result.stderr


def test_the_longest_window_still_fuzzes(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus",
                        emu("a.old", "event.user.failed.login IN 'P3650000D'"))
    result = run("fuzz", str(folder), "--max-examples", "20", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["emus"][0]["reachable"] is True


# ---- fuzz budgets ---------------------------------------------------------------------------

def _many(tmp_path: Path, count: int) -> Path:
    return write_emus(tmp_path / "emus", *(emu(f"k.e{i}", f"state.user.age > {i}")
                                           for i in range(count)))


def test_max_emus_fuzzes_the_first_n_and_lists_the_rest(tmp_path: Path) -> None:
    result = run("fuzz", str(_many(tmp_path, 5)), "--max-emus", "2", "-f", "json",
                 "--max-examples", "20")
    assert_clean_failure(result, 2)
    document = json.loads(result.stdout)
    assert [e["emu_key"] for e in document["emus"]] == ["k.e0", "k.e1"]
    assert document["not_fuzzed"] == [{"emu_key": f"k.e{i}", "reason": "beyond --max-emus 2"}
                                      for i in (2, 3, 4)]
    assert "topo: partial: 3 of 5 EMU(s) not fuzzed (beyond --max-emus 2)" in result.stderr


def test_a_spent_time_budget_is_a_labelled_partial_report(tmp_path: Path) -> None:
    result = run("fuzz", str(_many(tmp_path, 3)), "--time-budget", "0")
    assert_clean_failure(result, 2)
    assert "**Partial: 3 EMU(s) were not fuzzed** (the time budget of 0 s ran out)" \
        in result.stdout


def test_the_time_budget_stops_between_emus() -> None:
    """A fake clock that advances 10 s per reading: with a 25 s budget, the EMUs started
    before the deadline are fuzzed, the later ones are not."""
    loaded = policy.EmuSet(tuple(policy.Emu.from_object(emu(f"k.e{i}"), Location("x", i))
                                 for i in range(6)), (), ())
    parsed, _ = fuzzer.parse_policies(loaded)
    ticks = iter(range(0, 1000, 10))
    seen: list[tuple[int, int]] = []
    report = fuzzer.fuzz_policies(parsed, config=fuzzer.FuzzConfig(
        fuzzer.Budget(10), time_budget=25), clock=lambda: next(ticks),
        progress=lambda done, total: seen.append((done, total)))
    assert [r.emu.emu_key for r in report.emus] == ["k.e0", "k.e1"]
    assert [key for key, why in report.not_fuzzed if why.startswith("the time budget")] == [
        "k.e2", "k.e3", "k.e4", "k.e5"]
    # Arbitration started after the deadline too: its searches are skipped, and said so.
    assert [key for key, why in report.not_fuzzed if why.startswith("arbitration")] == [
        "k.e0", "k.e1"]
    assert seen == [(i, 6) for i in range(1, 7)]


def test_terminal_progress_counts_emus() -> None:
    class Stream(list):
        def write(self, text: str) -> None:
            self.append(text)

        def flush(self) -> None:
            pass

    stream = Stream()
    now = iter([0.0, 5.0, 5.0])
    progress = TerminalProgress(stream, clock=lambda: next(now))  # type: ignore[arg-type]
    progress.count(3, 3, "EMUs searched")
    assert stream[-1].endswith("topo: 3/3 EMUs searched")


def test_an_emu_file_that_is_a_fifo_is_refused_not_read_or_skipped(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu("b.healthy"))
    os.mkfifo(folder / "a.jsonl")                 # nothing writes it: a read would block
    result = run("emus", "validate", str(folder))
    assert_clean_failure(result, 2)
    assert "a.jsonl:0: error: cannot read file (not a regular file (a FIFO))" in result.output, \
        result.output
    assert "b.healthy" not in result.output or "error" in result.output
    assert policy.load_emus(folder).emus[0].emu_key == "b.healthy"   # the healthy file is read


def test_an_emu_file_linked_out_of_the_audited_root_is_not_opened(tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    outside.write_text(json.dumps(emu("x.outside")) + "\n", encoding="utf-8")
    root = tmp_path / "repo"
    (root / "emus").mkdir(parents=True)
    (root / "app.py").write_text("x = 1\n", encoding="utf-8")
    (root / "emus" / "link.jsonl").symlink_to(outside)
    loaded = policy.load_emus(root / "emus", root=root)
    assert [e.emu_key for e in loaded.emus] == []
    assert [(e.location.file, e.message) for e in loaded.errors] == [
        ("emus/link.jsonl", "cannot read file (outside the audited root (a symlink leads out "
                            "of it))")]
