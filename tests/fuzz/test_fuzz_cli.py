"""`topo fuzz` on the command line: exit codes, error messages, output, determinism, and the
`topo-fuzz/1` shape."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.fuzz.helpers import POLICIES, emu_line, fuzz_json, run, write_emus

REPO = Path(__file__).resolve().parents[2]
_MAIN = "import sys; from topo.cli import main; main(sys.argv[1:])"

_CTX = {"type": "object", "additionalProperties": False,
        "required": ["state", "tags", "events"],
        "properties": {"state": {"type": "object"}, "tags": {"type": "object"},
                       "events": {"type": "array", "items": {
                           "type": "object", "additionalProperties": False,
                           "required": ["name", "ts"],
                           "properties": {"name": {"type": "string"}, "ts": {"type": "string"},
                                          "attributes": {"type": "object"},
                                          "project": {"type": "string"}}}}}}


def _entries(required: dict) -> dict:
    return {"type": "array", "items": {"type": "object", "additionalProperties": False,
                                       "required": list(required), "properties": required}}


FUZZ_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["schema", "emus", "diff", "diff_summary", "arbitration"],
    "properties": {
        "schema": {"const": "topo-fuzz/1"},
        "emus": _entries({
            "emu_key": {"type": "string"},
            "decision_point": {"type": ["string", "null"]},
            "reachable": {"type": ["boolean", "null"]},
            "witness": {"anyOf": [_CTX, {"type": "null"}]},
            "absence_witnesses": _entries({"absent": {"type": "string"}, "context": _CTX}),
            "boundaries": _entries({"atom": {"type": "string"}, "value": {},
                                    "matches": {"type": "boolean"}})}),
        "diff": _entries({"emu_key": {"type": "string"}, "context": _CTX,
                          "before": {"type": "boolean"}, "after": {"type": "boolean"}}),
        "diff_summary": _entries({"emu_key": {"type": "string"},
                                  "atom": {"type": ["string", "null"]},
                                  "changed": {"type": "string"},
                                  "from": {"type": "boolean"}, "to": {"type": "boolean"}}),
        "arbitration": _entries({"decision_point": {"type": ["string", "null"]},
                                 "context": _CTX,
                                 "matching": {"type": "array", "items": {"type": "string"}},
                                 "selected": {"type": "array", "items": {"type": "string"}}}),
    },
}


@pytest.mark.parametrize("args", [
    ("refund_v2", "--before", "refund_v1"), ("arbitration",), ("dead",)])
def test_the_json_document_has_the_topo_fuzz_1_shape(args: tuple[str, ...]) -> None:
    paths = [str(POLICIES / a) if not a.startswith("-") else a for a in args]
    _, document = fuzz_json(*paths)
    jsonschema.validate(document, FUZZ_SCHEMA)
    assert document["emus"]


def test_two_runs_with_the_same_seed_give_byte_identical_json() -> None:
    args = ("fuzz", str(POLICIES / "refund_v2"), "--before", str(POLICIES / "refund_v1"),
            "-f", "json", "--seed", "7", "--max-examples", "40")
    first, second = run(*args), run(*args)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes


def test_separate_processes_with_other_hash_seeds_agree() -> None:
    def once(hash_seed: str) -> bytes:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        return subprocess.run([sys.executable, "-c", _MAIN, "fuzz",
                               str(POLICIES / "arbitration"), "-f", "json",
                               "--max-examples", "30"],
                              capture_output=True, env=env, cwd=REPO, check=True).stdout
    assert once("1") == once("2")


def test_markdown_is_the_default_and_names_the_dead_policy() -> None:
    result = run("fuzz", str(POLICIES / "dead"), "--max-examples", "30")
    assert result.exit_code == 1
    assert result.stdout.startswith("# topo fuzz report")
    assert "| `refund.amount_cents` |" not in result.stdout
    assert "no value of state.order.total satisfies > 1000, < 100" in result.stdout
    assert "billing.discount_contradiction" in result.stderr
    assert "have no witness" in result.stderr


def test_exit_0_when_every_evaluated_emu_has_a_witness() -> None:
    result = run("fuzz", str(POLICIES / "arbitration"), "--max-examples", "30")
    assert result.exit_code == 0, result.stderr


def test_a_dead_draft_does_not_fail_the_run(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu_line("d", "state.a.b > 1 AND state.a.b < 0",
                                                    state="draft"))
    code, document = fuzz_json(str(folder))
    assert code == 0 and document["emus"][0]["reachable"] is False


def test_a_single_jsonl_file_is_accepted(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu_line("k", "state.a.b == 1"), name="one.jsonl")
    code, document = fuzz_json(str(folder / "one.jsonl"))
    assert code == 0
    assert document["emus"][0]["witness"]["state"] == {"a.b": 1}


def test_output_goes_to_a_file_with_o(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = run("fuzz", str(POLICIES / "dead"), "-f", "json", "-o", str(out),
                 "--max-examples", "20")
    assert result.exit_code == 1 and result.stdout == ""
    assert json.loads(out.read_text())["schema"] == "topo-fuzz/1"


def test_now_and_source_date_epoch_set_the_evaluation_instant(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu_line("k", "event.u.did.x IN 'PT1H'"))
    _, document = fuzz_json(str(folder), "--now", "2030-01-01T00:00:00Z")
    assert document["emus"][0]["witness"]["events"][0]["ts"].startswith("2029-12-31T23:")
    _, document = fuzz_json(str(folder), env={"SOURCE_DATE_EPOCH": "0"})
    assert document["emus"][0]["witness"]["events"][0]["ts"].startswith("1969-12-31T23:")
    _, document = fuzz_json(str(folder))
    assert document["emus"][0]["witness"]["events"][0]["ts"].startswith("2026-11-30T11:")


# ---- errors --------------------------------------------------------------------------------

def test_a_missing_directory_is_exit_2(tmp_path: Path) -> None:
    result = run("fuzz", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "no such directory or file" in result.stderr and "Traceback" not in result.stderr


def test_a_missing_before_is_exit_2() -> None:
    result = run("fuzz", str(POLICIES / "refund_v2"), "--before", "no/such/dir")
    assert result.exit_code == 2
    assert "--before no/such/dir: no such directory or file" in result.stderr


def test_bad_jsonl_is_exit_2_with_file_and_line(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu_line("k", "state.a.b == 1"), "{not json")
    result = run("fuzz", str(folder))
    assert result.exit_code == 2
    assert "emus.jsonl:2: Invalid JSON" in result.stderr
    assert "nothing was fuzzed" in result.stderr and result.stdout == ""


def test_an_unparseable_trigger_is_exit_2_with_file_and_line(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu_line("ok", "state.a.b == 1"),
                        emu_line("bad", "state.a.b == \"x\""))
    result = run("fuzz", str(folder))
    assert result.exit_code == 2
    assert "emus.jsonl:2: bad: trigger does not parse: strings use single quotes" in result.stderr


def test_duplicate_keys_and_empty_folders_are_exit_2(tmp_path: Path) -> None:
    folder = write_emus(tmp_path / "emus", emu_line("k", "state.a.b == 1"),
                        emu_line("k", "state.a.b == 2"))
    result = run("fuzz", str(folder))
    assert result.exit_code == 2 and "Duplicate emu_key 'k'" in result.stderr
    (tmp_path / "empty").mkdir()
    result = run("fuzz", str(tmp_path / "empty"))
    assert result.exit_code == 2 and "no *.jsonl files" in result.stderr


def test_bad_option_values_are_exit_2() -> None:
    assert run("fuzz", str(POLICIES / "dead"), "--max-examples", "0").exit_code == 2
    result = run("fuzz", str(POLICIES / "dead"), "--now", "yesterday")
    assert result.exit_code == 2 and "--now 'yesterday'" in result.stderr
    result = run("fuzz", str(POLICIES / "dead"), env={"SOURCE_DATE_EPOCH": "soon"})
    assert result.exit_code == 2 and "SOURCE_DATE_EPOCH" in result.stderr


def test_help_documents_the_exit_codes() -> None:
    result = run("fuzz", "--help")
    assert result.exit_code == 0
    assert "Exit 0, 1 when an EMU" in result.stdout and "--before OLD" in result.stdout


def test_top_k_reaches_the_arbitration_simulation() -> None:
    def selected(*extra: str) -> set[tuple[str, ...]]:
        _, document = fuzz_json(str(POLICIES / "arbitration"), *extra)
        return {tuple(entry["selected"]) for entry in document["arbitration"]}
    pair = ("support.route_enterprise", "support.enterprise_context")
    assert pair in selected()
    limited = selected("--top-k", "1")
    assert pair not in limited and ("support.route_enterprise",) in limited


def test_a_file_that_is_not_jsonl_is_exit_2(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# not EMUs\n")
    result = run("fuzz", str(notes))
    assert result.exit_code == 2
    assert "not an EMU file" in result.stderr
