"""Probe values read off the AST, and boundary tables around the witness."""

from __future__ import annotations

import math

import pytest

from topo.audit.dsl import EvalContext
from topo.audit.triggers.atoms import ABSENT, Atom
from topo.audit.triggers.boundaries import TRUTHINESS_TRAPS, merge_probes, probes, same_value
from topo.audit.triggers.evaluation import TriggerUnderTest
from topo.audit.triggers.strategies import CONTEXT_NOW
from topo.audit.fuzz.tables import boundary_table, empty_context
from tests.fuzz.helpers import parse


def values(text: str, atom: Atom) -> tuple:
    return probes(parse(text)).values[atom]


def has(found: tuple, value: object) -> bool:
    return any(same_value(value, v) for v in found)


A = Atom("state", "a.b")


@pytest.mark.parametrize(("text", "wanted"), [
    ("state.a.b <= 5000", [5000, 4999, 5001]),
    ("state.a.b > 0", [0, -1, 1]),
    ("state.a.b > 2 AND state.a.b < 3", [2.5]),
    ("state.a.b * 2 > 100", [50, 49, 51]),
    ("state.a.b + 10 <= 100", [90, 89, 91]),
    ("state.a.b / 4 >= 25", [100]),
])
def test_numbers_are_the_literal_its_neighbours_and_solved_values(text: str, wanted: list) -> None:
    found = values(text, A)
    assert all(has(found, value) for value in wanted), found


def test_the_literal_itself_comes_first() -> None:
    assert values("state.a.b <= 5000", A)[:3] == (5000, 4999, 5001)


def test_a_decimal_literal_gets_the_next_floats_either_side() -> None:
    found = values("state.a.b >= 0.8", A)
    for value in (0.8, math.nextafter(0.8, -math.inf), math.nextafter(0.8, math.inf)):
        assert has(found, value)


def test_coupled_accessors_share_numbers() -> None:
    result = probes(parse("state.a.b > 0 AND state.a.b <= state.c.d"))
    assert result.couplings[A] == (Atom("state", "c.d"),)
    assert has(result.values[Atom("state", "c.d")], 1)


def test_strings_get_case_nfkc_whitespace_and_other_variants() -> None:
    found = values("state.a.b == 'USD'", A)
    assert found[0] == "USD"
    for variant in ("usd", "Usd", " USD ", "ＵＳＤ", "other", ""):
        assert has(found, variant), variant


def test_membership_gets_members_variants_and_a_non_member() -> None:
    found = values("state.a.b IN ['admin', 7]", A)
    for value in ("admin", "ADMIN", " admin ", "ａｄｍｉｎ", "other", 7, 6, 8):
        assert has(found, value), value


def test_the_shorthand_gets_the_truthiness_traps() -> None:
    found = values("NOT state.a.b", A)
    assert all(has(found, trap) for trap in (True, False, *TRUTHINESS_TRAPS))
    assert {"unknown", "false", "No", 0, -1} <= set(TRUTHINESS_TRAPS)


def test_exists_gets_present_and_present_but_falsy_values() -> None:
    found = values("state.a.b EXISTS", A)
    assert all(has(found, v) for v in ("x", "", False, 0))


def test_count_thresholds_are_probed_one_either_side() -> None:
    result = probes(parse("COUNT event.u.failed.login IN 'PT15M' >= 5"))
    (query,) = result.queries[Atom("event", "u.failed.login")]
    assert result.counts[query] == (0, 4, 5, 6)


def test_templates_make_their_state_key_an_atom() -> None:
    result = probes(parse("event.c.got.refund WHERE id == '{{customer.id}}' IN 'P1D'"))
    assert result.atoms == (Atom("event", "c.got.refund"), Atom("state", "customer.id"))
    assert result.values[Atom("state", "customer.id")] == ("c1",)


def test_merged_probes_keep_both_versions_values() -> None:
    merged = merge_probes(probes(parse("state.a.b <= 7500")), probes(parse("state.a.b <= 5000")))
    assert all(has(merged.values[A], v) for v in (7500, 7501, 5000, 5001))


# ---- tables --------------------------------------------------------------------------------

def table(text: str, base: EvalContext) -> dict[tuple[str, object], bool]:
    ast = parse(text)
    rows = boundary_table(TriggerUnderTest(ast), base, probes(ast))
    return {(row.atom.name, "absent" if row.value is ABSENT else row.value): row.matches
            for row in rows}


def base(**state: object) -> EvalContext:
    return EvalContext(state=state, tags={}, events=(), now=CONTEXT_NOW)


def test_a_numeric_row_flips_exactly_at_the_literal() -> None:
    rows = table("state.a.b <= 5000", base(**{"a.b": 5000}))
    assert rows[("a.b", 4999)] and rows[("a.b", 5000)]
    assert not rows[("a.b", 5001)] and not rows[("a.b", "absent")]


def test_a_coupled_partner_is_rechosen_so_the_row_shows_the_atom_itself() -> None:
    text = "state.a.b > 0 AND state.a.b <= 5000 AND state.a.b <= state.c.d"
    rows = table(text, base(**{"a.b": 1, "c.d": 1}))
    assert rows[("a.b", 5000)] and not rows[("a.b", 5001)]
    assert not rows[("c.d", 0)]  # no positive amount fits a balance of 0


def test_tag_rows_show_normalised_equality() -> None:
    ast = parse("tag.risk == 'high'")
    witness = EvalContext(state={}, tags={"risk": "high"}, events=(), now=CONTEXT_NOW)
    rows = {row.value: row.matches
            for row in boundary_table(TriggerUnderTest(ast), witness, probes(ast))}
    assert rows["HIGH"] and rows[" high "] and rows["ｈｉｇｈ"]
    assert not rows["other"] and not rows[ABSENT]


def test_event_rows_cover_the_window_edge_and_near_misses() -> None:
    rows = table("NOT event.agent.sent.email IN 'P7D'", empty_context(CONTEXT_NOW))
    name = "event.agent.sent.email"
    assert not rows[(name, "inside P7D")] and not rows[(name, "on the P7D edge")]
    assert rows[(name, "just outside P7D")] and rows[(name, "in the future")]
    assert rows[(name, "in another project")] and rows[(name, "absent")]


def test_count_rows_flip_at_the_threshold() -> None:
    rows = table("COUNT event.u.failed.login IN 'PT15M' >= 5", empty_context(CONTEXT_NOW))
    name = "event.u.failed.login"
    assert [rows[(name, n)] for n in (0, 4, 5, 6)] == [False, False, True, True]


def test_a_where_mismatch_row_does_not_match() -> None:
    rows = table("event.u.did.x WHERE kind == 'a' IN 'PT1H'", empty_context(CONTEXT_NOW))
    assert rows[("event.u.did.x", "inside PT1H")]
    assert not rows[("event.u.did.x", "with a WHERE mismatch")]


def test_rows_are_sorted_numbers_first_and_absent_last() -> None:
    ast = parse("state.a.b <= 10")
    rows = [row.value for row in boundary_table(TriggerUnderTest(ast),
                                                base(**{"a.b": 10}), probes(ast))]
    assert rows == [9, 10, 11, ABSENT]
