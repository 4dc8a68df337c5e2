"""Reachability: witnesses, absence witnesses, proofs of unsatisfiability, and "unknown"."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from topo.audit.dsl import EvaluationError, evaluate
from topo.audit.fuzz import contradiction, fuzz_policies
from topo.audit.triggers.atoms import Atom
from topo.audit.triggers.boundaries import probes
from topo.audit.triggers.evaluation import TriggerUnderTest
from topo.audit.triggers.search import Budget
from topo.audit.triggers.strategies import CONTEXT_NOW, contexts, triggers
from topo.audit.triggers.witness import reachability
from tests.fuzz.helpers import FAST, POLICIES, fuzz_json, parse, policies


def reach(text: str, max_examples: int = 60):
    ast = parse(text)
    return reachability(TriggerUnderTest(ast), probes(ast), Budget(max_examples, 0),
                        purpose="test", now=CONTEXT_NOW)


# ---- the corpus: a dead policy and a ghost of absence ------------------------------------

def test_a_contradictory_trigger_has_no_witness_and_fuzz_exits_1() -> None:
    code, document = fuzz_json(str(POLICIES / "dead"))
    assert code == 1
    (dead,) = [e for e in document["emus"] if e["emu_key"] == "billing.discount_contradiction"]
    assert (dead["reachable"], dead["witness"], dead["absence_witnesses"]) == (False, None, [])


def test_not_banned_yields_an_absence_witness() -> None:
    code, document = fuzz_json(str(POLICIES / "dead"))
    (emu,) = [e for e in document["emus"] if e["emu_key"] == "support.unbanned_greeting"]
    assert emu["reachable"] is True
    assert emu["absence_witnesses"] == [
        {"absent": "user.banned", "context": {"state": {}, "tags": {}, "events": []}}]


def test_the_dead_policy_is_named_with_its_proof_in_markdown() -> None:
    (result, _) = fuzz_policies(policies(POLICIES / "dead"), config=FAST).emus
    assert result.is_dead
    assert result.reachability.proof == "no value of state.order.total satisfies > 1000, < 100"


# ---- witnesses -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "state"), [
    ("state.a.b == 'x' OR state.c.d > 5", {"a.b": "x"}),
    ("state.user.tier IN ['gold', 'platinum']", {"user.tier": "gold"}),
    ("state.order.total >= 1000", {"order.total": 1000}),
    ("state.a.b <= 5000", {"a.b": 5000}),
    ("state.account.verified", {"account.verified": True}),
    ("NOT state.user.banned AND state.user.id EXISTS", {"user.id": "x"}),
    (r"state.doc.code MATCHES '^[A-Z]{3}-\d{4}$'", {"doc.code": "AAA-0000"}),
    ("state.cart.total * 2 > 100", {"cart.total": 100}),
    ("state.request.cost + state.budget.spent <= state.budget.limit",
     {"request.cost": 0, "budget.spent": 0, "budget.limit": 0}),
])
def test_witnesses_are_minimal_contexts_that_match(text: str, state: dict) -> None:
    found = reach(text)
    assert found.reachable is True
    assert dict(found.witness.state) == state and not found.witness.tags
    assert evaluate(parse(text), found.witness)


def test_a_count_witness_has_exactly_the_threshold_of_matching_events() -> None:
    text = ("state.user.id EXISTS AND COUNT event.user.failed.login "
            "WHERE user_id == '{{user.id}}' IN 'PT15M' >= 5")
    found = reach(text)
    events = found.witness.events
    assert len(events) == 5
    assert {e.attributes["user_id"] for e in events} == {found.witness.state["user.id"]}


def test_absence_witnesses_cover_each_branch_of_an_or() -> None:
    found = reach("state.a.b == 1 OR tag.c == 'x'")
    by_atom = {w.atom: w.context for w in found.absence_witnesses}
    assert set(by_atom) == {Atom("state", "a.b"), Atom("tag", "c")}
    assert dict(by_atom[Atom("state", "a.b")].tags) == {"c": "x"}
    assert dict(by_atom[Atom("tag", "c")].state) == {"a.b": 1}


def test_a_negated_event_is_absent_in_its_absence_witness() -> None:
    found = reach("state.t.status == 'resolved' AND NOT event.agent.sent.email IN 'P7D'")
    (witness,) = found.absence_witnesses
    assert witness.atom == Atom("event", "agent.sent.email")
    assert not witness.context.events


def test_required_atoms_have_no_absence_witness() -> None:
    assert reach("state.a.b EXISTS AND state.c.d > 1").absence_witnesses == ()


def test_reachability_is_unknown_when_neither_witness_nor_proof_exists() -> None:
    found = reach("state.cart.items * 2 > 10 AND state.cart.items < 3")
    assert (found.reachable, found.witness, found.proof) == (None, None, None)
    assert found.tried > 0


# ---- proofs --------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "reason"), [
    ("state.a.b > 10 AND state.a.b < 5", "no value of state.a.b satisfies > 10, < 5"),
    ("state.a.b >= 5 AND state.a.b < 5", "no value of state.a.b satisfies >= 5, < 5"),
    ("state.a.b == 3 AND state.a.b != 3", "no value of state.a.b satisfies == 3, != 3"),
    ("state.a.b IN [1, 2] AND state.a.b > 2", "no value of state.a.b satisfies IN [1, 2], > 2"),
    ("state.a.b > 10 AND NOT state.a.b >= 5", "no value of state.a.b satisfies > 10, < 5"),
    ("state.a.b == 'x' AND state.a.b == 'y'", "state.a.b == 'x' and state.a.b == 'y'"),
    ("state.a.b == 'x' AND state.a.b IN ['y', 'z']", "state.a.b == 'x' and state.a.b IN"),
    ("state.a.b == false AND state.a.b", "state.a.b == false and state.a.b cannot"),
    ("tag.k == 'x' AND tag.k == 'Y'", "tag.k == 'x' and tag.k == 'Y'"),
    ("state.a.b EXISTS AND NOT state.a.b EXISTS", "state.a.b EXISTS and NOT state.a.b EXISTS"),
    ("state.a.b > 1 AND NOT state.a.b EXISTS", "needs state.a.b present"),
    ("COUNT event.u.failed.login IN 'PT1H' >= 5 AND COUNT event.u.failed.login IN 'PT1H' < 3",
     "no number of event.u.failed.login events within PT1H satisfies >= 5, < 3"),
    ("COUNT event.u.failed.login IN 'PT1H' < 0", "satisfies < 0"),
    ("event.u.failed.login IN 'PT1H' AND COUNT event.u.failed.login IN 'PT1H' == 0",
     "satisfies >= 1, == 0"),
    ("(state.a.b > 1 OR state.c.d EXISTS) AND state.a.b < 0 AND NOT state.c.d EXISTS",
     "each of its 2 alternatives is contradictory"),
])
def test_contradictions_are_proven(text: str, reason: str) -> None:
    proof = contradiction(parse(text))
    assert proof is not None and reason in proof
    assert reach(text, max_examples=30).reachable is False


@pytest.mark.parametrize("text", [
    "state.a.b > 2 AND state.a.b < 3",             # 2.5
    "state.a.b != 3 AND state.a.b == 'x'",          # a string differs from 3
    "tag.k == 'x' AND tag.k == 'X'",                # tags compare normalised
    "NOT state.a.b > 5 AND state.a.b == 'x'",       # a string is not ordered against 5
    "state.a.b > 1 OR NOT state.a.b EXISTS",
    "COUNT event.u.f.l IN 'PT1H' >= 2 AND COUNT event.u.f.l IN 'PT1H' <= 2",
])
def test_satisfiable_triggers_are_not_called_contradictory(text: str) -> None:
    assert contradiction(parse(text)) is None
    assert reach(text).reachable is True


@settings(max_examples=80, deadline=None)
@given(st.data(), triggers(max_leaves=5))
def test_a_proof_is_never_contradicted_by_a_context(data, trigger) -> None:
    """Soundness: when a trigger is proven unsatisfiable, no context makes it true."""
    if contradiction(trigger) is None:
        return
    context = data.draw(contexts(trigger))
    try:
        assert evaluate(trigger, context, match_timeout=0.05) is False
    except EvaluationError:
        pass


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.nested_given])
@given(triggers(max_leaves=3))
def test_every_witness_matches_and_no_witness_has_a_proof(trigger) -> None:
    found = reachability(TriggerUnderTest(trigger), probes(trigger), Budget(10, 0),
                         purpose="property", now=CONTEXT_NOW)
    if found.witness is not None:
        assert TriggerUnderTest(trigger).matches(found.witness)
        assert found.proof is None
    for absence in found.absence_witnesses:
        assert TriggerUnderTest(trigger).matches(absence.context)


# ---- evaluation errors ---------------------------------------------------------------------

def test_evaluation_errors_count_as_non_matches_and_are_reported(tmp_path) -> None:
    from tests.fuzz.helpers import emu_line, run, write_emus
    folder = write_emus(tmp_path / "emus",
                        emu_line("broken", "state.a.b + 1 > 2 AND state.a.b == 'x'"),
                        emu_line("fallback",
                                 "state.a.b + 1 > 2 AND state.a.b == 'x' OR state.c.d == 1"))
    broken, fallback = fuzz_policies(policies(folder), config=FAST).emus
    assert broken.reachability.witness is None and broken.is_dead
    assert broken.reachability.reachable is None  # arithmetic on 'x' is outside the proofs
    assert "arithmetic on a non-numeric value 'x'" in dict(broken.evaluation_errors)
    assert dict(fallback.reachability.witness.state) == {"c.d": 1}
    assert fallback.evaluation_errors
    result = run("fuzz", str(folder), "--max-examples", "30")
    assert result.exit_code == 1
    assert "Evaluation error (counted as a non-match)" in result.stdout
