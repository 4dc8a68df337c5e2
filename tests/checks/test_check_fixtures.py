"""Golden fixtures for every check code, both ways (see fixtures.py for the format)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from topo.audit import codes
from topo.audit.pipeline import AuditRequest, run_audit
from fixtures import fixture_dirs, read_expectations

FIXTURES = fixture_dirs()


@pytest.mark.parametrize("directory", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture(directory: Path) -> None:
    result = run_audit(AuditRequest(root=directory, jobs=1, cache_dir=None))
    assert result.unknowns == (), result.unknowns
    expected = read_expectations(directory)
    on_lines: dict[tuple[str, int], set[str]] = defaultdict(set)
    by_emu: set[tuple[str, str]] = set()
    for finding in result.findings:
        if finding.emu_key is not None and finding.location.file.endswith(".jsonl"):
            by_emu.add((finding.code.id, finding.emu_key))
        else:
            on_lines[(finding.location.file, finding.location.line)].add(finding.code.id)
    for place, wanted in expected.lines.items():
        assert on_lines.get(place, set()) == wanted, \
            f"{place}: expected exactly {sorted(wanted)}, found {sorted(on_lines.get(place, []))}"
    for place, unwanted in expected.not_lines.items():
        assert not (on_lines.get(place, set()) & unwanted), f"{place}: found {sorted(unwanted)}"
    unexpected = {place: found for place, found in on_lines.items()
                  if place not in expected.lines
                  and found - expected.todo.get(place, set())}
    assert unexpected == {}, f"findings on lines without EXPECT: {unexpected}"
    assert by_emu == expected.emus, f"EMU findings: missing {sorted(expected.emus - by_emu)}, " \
        f"unexpected {sorted(by_emu - expected.emus)}"
    assert not (by_emu & expected.not_emus)


def test_bad_and_good_fixture_for_every_code() -> None:
    for code in codes.ALL:
        folder = FIXTURES[0].parents[1] / code.id
        bad = [d for d in FIXTURES if d.parent == folder and d.name.startswith("bad_")]
        good = [d for d in FIXTURES if d.parent == folder and d.name.startswith("good_")]
        assert bad and good, f"{code.id}: needs bad_* and good_* fixtures in {folder}"
        for directory in bad:
            found = read_expectations(directory)
            assert code.id in {c for cs in found.lines.values() for c in cs} | \
                {c for c, _ in found.emus}, f"{directory}: no EXPECT of {code.id}"
        for directory in good:
            found = read_expectations(directory)
            assert code.id not in {c for cs in found.lines.values() for c in cs} | \
                {c for c, _ in found.emus}, f"{directory}: a good twin expects {code.id}"


def test_every_marker_names_a_known_code() -> None:
    known = {code.id for code in codes.ALL}
    for directory in FIXTURES:
        assert read_expectations(directory).codes() <= known, directory
