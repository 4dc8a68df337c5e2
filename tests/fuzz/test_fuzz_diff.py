"""Before/after comparison: intervals and value sets, added/removed and unchanged EMUs."""

from __future__ import annotations

from pathlib import Path

from topo.audit.fuzz import fuzz_policies
from topo.audit.triggers.atoms import ABSENT
from tests.fuzz.helpers import FAST, emu_line, policies, write_emus


def compare(tmp_path: Path, before: list[str], after: list[str]):
    old = policies(write_emus(tmp_path / "old", *before))
    new = policies(write_emus(tmp_path / "new", *after))
    return fuzz_policies(new, before=old, config=FAST).diffs


def summary(diffs) -> list[tuple]:
    return [(r.emu_key, r.atom.name if r.atom else None, r.changed, r.before, r.after)
            for diff in diffs for r in diff.regions]


def test_a_raised_threshold_is_one_interval_that_stops_matching(tmp_path: Path) -> None:
    diffs = compare(tmp_path, [emu_line("k", "state.a.n > 10")], [emu_line("k", "state.a.n > 20")])
    assert summary(diffs) == [("k", "a.n", "[11, 20]", True, False)]


def test_a_decimal_threshold_reads_in_next_floats(tmp_path: Path) -> None:
    diffs = compare(tmp_path, [emu_line("k", "state.s.v >= 0.8")],
                    [emu_line("k", "state.s.v >= 0.7")])
    assert summary(diffs) == [("k", "s.v", "[0.7, 0.7999999999999999]", False, True)]


def test_string_changes_are_value_sets(tmp_path: Path) -> None:
    diffs = compare(tmp_path, [emu_line("k", "state.c.tier == 'gold'")],
                    [emu_line("k", "state.c.tier == 'gold' OR state.c.tier == 'platinum'")])
    assert summary(diffs) == [("k", "c.tier", "{'platinum'}", False, True)]


def test_dropping_a_guard_shows_absent_as_a_changed_value(tmp_path: Path) -> None:
    diffs = compare(tmp_path, [emu_line("k", "state.u.id EXISTS AND NOT state.u.banned")],
                    [emu_line("k", "NOT state.u.banned")])
    (diff,) = diffs
    assert ("k", "u.id", "{absent}", False, True) in summary(diffs)
    changed = [c for c in diff.cases if "u.id" not in c.context.state]
    assert changed and all((c.before, c.after) == (False, True) for c in changed)


def test_added_and_removed_emus_are_reported_with_witnesses(tmp_path: Path) -> None:
    diffs = compare(tmp_path, [emu_line("gone", "state.a.b EXISTS")],
                    [emu_line("new", "state.c.d == 1")])
    assert summary(diffs) == [("new", None, "added", False, True),
                              ("gone", None, "removed", True, False)]
    added, removed = diffs
    assert (added.cases[0].before, added.cases[0].after) == (False, True)
    assert dict(added.cases[0].context.state) == {"c.d": 1}
    assert (removed.cases[0].before, removed.cases[0].after) == (True, False)


def test_a_reformatted_trigger_is_unchanged(tmp_path: Path) -> None:
    diffs = compare(tmp_path, [emu_line("k", "state.a.b  ==  1 AND (state.c.d EXISTS)")],
                    [emu_line("k", "state.a.b == 1 AND state.c.d EXISTS")])
    (diff,) = diffs
    assert (diff.status, diff.regions, diff.cases) == ("unchanged", (), ())


def test_unchanged_values_are_confirmed_with_their_outcome(tmp_path: Path) -> None:
    (diff,) = compare(tmp_path, [emu_line("k", "state.a.n > 10 AND state.c.x == 'y'")],
                      [emu_line("k", "state.a.n > 20 AND state.c.x == 'y'")])
    assert summary([diff]) == [("k", "a.n", "[11, 20]", True, False)]  # c.x is not blamed
    unchanged = {(r.atom.name, r.outcome): r.values for r in diff.unchanged}
    assert 21 in unchanged[("a.n", True)] and 10 in unchanged[("a.n", False)]
    assert ABSENT in unchanged[("c.x", False)] and "y" in unchanged[("c.x", True)]
