"""Acceptance: seed 000's refund change (USD 50 -> 75) yields exactly the docs' case table.

| Case | USD 50 policy | USD 75 policy |
| 5,000 cents, all other facts valid | matches | matches |
| 5,001, 7,499, or 7,500 cents, sufficient balance | does not match | matches |
| 7,501 cents | does not match | does not match |
| zero/negative amount, wrong currency, unsettled payment, ownership or eligibility false,
  any required fact missing | does not match | does not match |
| amount exceeds refundable balance | does not match | does not match |
"""

from __future__ import annotations

import pytest

from topo.audit.dsl import load_context, parse_timestamp
from topo.audit.fuzz import DEFAULT_NOW, fuzz_policies
from topo.audit.triggers.atoms import ABSENT, Atom
from topo.audit.triggers.boundaries import same_value
from topo.audit.fuzz.diff import ChangedRegion, EmuDiff
from topo.audit.triggers.evaluation import TriggerUnderTest
from tests.fuzz.helpers import FAST, POLICIES, fuzz_json, policies

V1, V2 = POLICIES / "refund_v1", POLICIES / "refund_v2"
KEY = "support.refund_small"
AMOUNT, BALANCE = "refund.amount_cents", "payment.refundable_cents"
FACTS = ("refund.request_id", "customer.owns_payment", "refund.eligible", "payment.status",
         "payment.currency", AMOUNT, BALANCE)


@pytest.fixture(scope="module")
def refund_diff() -> EmuDiff:
    report = fuzz_policies(policies(V2), before=policies(V1), config=FAST)
    (diff,) = report.diffs
    return diff


def outcome(diff: EmuDiff, atom: str, value: object) -> tuple[bool, bool]:
    """(USD 50 policy, USD 75 policy) at one probe value; every base must agree."""
    pairs = {(p.before, p.after) for p in diff.points
             if p.atom.name == atom and same_value(p.value, value)}
    assert len(pairs) == 1, (atom, value, pairs)
    return pairs.pop()


def test_the_changed_region_is_exactly_5001_to_7500_cents(refund_diff: EmuDiff) -> None:
    assert refund_diff.regions == (
        ChangedRegion(KEY, Atom("state", AMOUNT), "[5001, 7500]", False, True),)


def test_the_json_diff_summary_states_the_same_single_region() -> None:
    code, document = fuzz_json(str(V2), "--before", str(V1))
    assert code == 0
    assert document["diff_summary"] == [{"emu_key": KEY, "atom": AMOUNT,
                                         "changed": "[5001, 7500]", "from": False, "to": True}]


@pytest.mark.parametrize(("cents", "expected"), [
    (5000, (True, True)), (5001, (False, True)), (7499, (False, True)), (7500, (False, True)),
    (7501, (False, False)), (0, (False, False)), (-1, (False, False))])
def test_amount_rows_follow_the_docs_table(refund_diff: EmuDiff, cents: int,
                                            expected: tuple[bool, bool]) -> None:
    assert outcome(refund_diff, AMOUNT, cents) == expected


@pytest.mark.parametrize(("atom", "value"), [
    ("payment.currency", "usd"), ("payment.currency", "other"), ("payment.currency", " USD "),
    ("payment.status", "other"), ("payment.status", "SETTLED"),
    ("customer.owns_payment", False), ("customer.owns_payment", "true"),
    ("refund.eligible", False)])
def test_wrong_facts_match_in_neither_version(refund_diff: EmuDiff, atom: str,
                                              value: object) -> None:
    assert outcome(refund_diff, atom, value) == (False, False)


@pytest.mark.parametrize("atom", FACTS)
def test_any_required_fact_missing_matches_in_neither_version(refund_diff: EmuDiff,
                                                              atom: str) -> None:
    assert outcome(refund_diff, atom, ABSENT) == (False, False)


def test_an_amount_above_the_refundable_balance_matches_in_neither(refund_diff: EmuDiff
                                                                   ) -> None:
    before, after = (TriggerUnderTest(p.ast) for p in (*policies(V1), *policies(V2)))
    above = [p for p in refund_diff.points if p.atom.name == BALANCE
             and isinstance(p.value, int)
             and p.context.state[AMOUNT] > p.context.state[BALANCE]]
    assert above, "no row puts the amount above the balance"
    for point in above:
        assert (point.before, point.after) == (False, False)
        assert not before.matches(point.context) and not after.matches(point.context)


def test_unchanged_outcomes_are_confirmed_per_fact(refund_diff: EmuDiff) -> None:
    neither = {r.atom.name: r.values for r in refund_diff.unchanged if not r.outcome}
    both = {r.atom.name: r.values for r in refund_diff.unchanged if r.outcome}
    assert set(neither) == set(FACTS)
    assert all(any(v is ABSENT for v in values) for values in neither.values())
    assert 5000 in both[AMOUNT] and 7501 in neither[AMOUNT]
    assert "USD" in both["payment.currency"] and "usd" in neither["payment.currency"]


def test_every_diff_context_is_a_valid_changed_example_with_the_boundaries() -> None:
    code, document = fuzz_json(str(V2), "--before", str(V1))
    assert code == 0 and document["diff"]
    before, after = (TriggerUnderTest(p.ast) for p in (*policies(V1), *policies(V2)))
    amounts = set()
    for case in document["diff"]:
        context = load_context(case["context"], now=DEFAULT_NOW)
        assert (case["emu_key"], case["before"], case["after"]) == (KEY, False, True)
        assert (before.matches(context), after.matches(context)) == (False, True)
        amounts.add(case["context"]["state"][AMOUNT])
    assert {5001, 7499, 7500} <= amounts
    assert all(5001 <= amount <= 7500 for amount in amounts)


def test_the_witness_of_each_version_satisfies_every_fact() -> None:
    for folder in (V1, V2):
        (result,) = fuzz_policies(policies(folder), config=FAST).emus
        witness = result.reachability.witness
        assert result.reachability.reachable is True
        assert set(witness.state) == set(FACTS)
        assert TriggerUnderTest(policies(folder)[0].ast).matches(witness)
        assert parse_timestamp("2026-11-30T12:00:00Z") == witness.now
