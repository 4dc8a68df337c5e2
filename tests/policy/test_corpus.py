"""Golden tests over corpus/emus: the defects yield exactly expected.txt, clean yields nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from topo.audit.policy import validate_directory

EMUS = Path(__file__).resolve().parents[2] / "corpus" / "emus"


def expected(folder: str) -> set[tuple[str, str]]:
    """`CODE emu_key` and `ERROR file:line` lines; `#` comments and blanks are skipped."""
    lines = (EMUS / folder / "expected.txt").read_text().splitlines()
    return {tuple(line.split()) for line in lines if line.strip() and not line.startswith("#")}


def actual(folder: str) -> set[tuple[str, str]]:
    report = validate_directory(EMUS / folder, root=EMUS)
    found = {(f.code.id, f.emu_key or f.symbol) for f in report.findings}
    errors = {("ERROR", f"{e.location.file}:{e.location.line}") for e in report.errors}
    return found | errors


@pytest.mark.parametrize("folder", ["defects", "broken"])
def test_corpus_yields_exactly_the_expected_results(folder: str) -> None:
    want, got = expected(folder), actual(folder)
    assert not want - got, f"missing: {sorted(want - got)}"
    assert not got - want, f"unexpected: {sorted(got - want)}"


def test_clean_corpus_has_no_findings_and_no_errors() -> None:
    report = validate_directory(EMUS / "clean", root=EMUS)
    assert report.errors == ()
    assert [(f.code.id, f.emu_key, f.message) for f in report.findings] == []
    assert len(report.emus) >= 9


def test_each_defect_is_alone_on_its_emu() -> None:
    keys = [key for code, key in expected("defects") if code != "ERROR"]
    assert len(keys) == len(set(keys))


def test_every_defect_has_a_fixed_twin_in_clean() -> None:
    clean = {emu.emu_key for emu in validate_directory(EMUS / "clean").emus}
    for code, key in expected("defects"):
        if code != "ERROR":
            assert key.startswith("bad.") and "good." + key[4:] in clean, key


def test_ignored_files_in_defects_would_have_been_found() -> None:
    """The lock file, a dotfile, a nested folder and a .json file hold EMUs with defects; the
    golden set stays exact only because none of them is read."""
    ignored = [".emu.lock.jsonl", ".scratch.jsonl", "archive/old.jsonl", "notes.json"]
    for name in ignored:
        assert (EMUS / "defects" / name).is_file(), name
    report = validate_directory(EMUS / "defects", root=EMUS)
    assert report.emus and {e.location.file for e in report.emus} == {
        "defects/emus.jsonl", "defects/more.jsonl"}


def test_defects_are_reported_in_file_order() -> None:
    report = validate_directory(EMUS / "defects", root=EMUS)
    places = [(f.location.file, f.location.line) for f in report.findings]
    assert places == sorted(places)


def test_validation_is_deterministic() -> None:
    first = validate_directory(EMUS / "defects", root=EMUS)
    second = validate_directory(EMUS / "defects", root=EMUS)
    assert first == second
    assert json.dumps([f.message for f in first.findings]) == json.dumps(
        [f.message for f in second.findings])
