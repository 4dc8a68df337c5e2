"""Arbitration: lifecycle lanes, score and tie-breaks, exclusion groups, top_k, suppression; and
the corpus EMU that matches but is always outscored."""

from __future__ import annotations

from topo.audit.dsl import EvalContext
from topo.audit.fuzz import fuzz_policies
from topo.audit.fuzz.arbitration import contender, select
from topo.audit.triggers.evaluation import TriggerUnderTest
from topo.audit.triggers.strategies import CONTEXT_NOW
from tests.fuzz.helpers import FAST, POLICIES, fuzz_json, parse, policies

ANY = "state.a.b EXISTS"
CTX = EvalContext(state={"a.b": 1}, tags={}, events=(), now=CONTEXT_NOW)


def emu(key: str, *, trigger: str = ANY, state: str | None = "active", utility: float = 0.8,
        confidence: float = 0.9, order: int = 0, **policy: object):
    raw = {"expected_utility": utility, "confidence": confidence, "policy": policy}
    return contender(key, "point", state, raw, TriggerUnderTest(parse(trigger)), order)


def test_the_higher_score_wins_an_exclusion_group_even_against_priority_9() -> None:
    strong = emu("strong", utility=0.9, confidence=0.9, priority=1, exclusion_groups=["g"])
    loud = emu("loud", utility=0.7, confidence=0.8, priority=9, exclusion_groups=["g"], order=1)
    selection = select([loud, strong], CTX)
    assert selection.selected == ("strong",)
    assert selection.matching == ("strong", "loud")
    (reason,) = selection.reasons
    assert reason[0] == "loud" and "outranked by strong in exclusion group 'g'" in reason[1]


def test_score_ties_break_by_priority_then_utility_then_confidence_then_file_order() -> None:
    # 0.7 * 0.8 + 0.3 * 0.9 == 0.7 * 0.77 + 0.3 * 0.97 == 0.83 exactly
    by_priority = [emu("low", priority=1, exclusion_groups=["g"]),
                   emu("high", priority=2, exclusion_groups=["g"], order=1)]
    assert select(by_priority, CTX).selected == ("high",)
    by_utility = [emu("less", utility=0.77, confidence=0.97, exclusion_groups=["g"]),
                  emu("more", exclusion_groups=["g"], order=1)]
    assert select(by_utility, CTX).selected == ("more",)
    by_order = [emu("second", exclusion_groups=["g"], order=1),
                emu("first", exclusion_groups=["g"], order=0)]
    assert select(by_order, CTX).selected == ("first",)


def test_without_a_shared_group_both_are_selected_in_rank_order() -> None:
    selection = select([emu("b", utility=0.5), emu("a", utility=0.9, order=1)], CTX)
    assert selection.selected == ("a", "b")


def test_top_k_limits_the_selection() -> None:
    selection = select([emu("a", utility=0.9), emu("b", utility=0.5, order=1)], CTX, top_k=1)
    assert selection.selected == ("a",)
    assert dict(selection.reasons) == {"b": "beyond top_k 1"}


def test_shadow_is_evaluated_but_never_selected_nor_displaces_live() -> None:
    shadow = emu("shadow", state="shadow", utility=1.0, confidence=1.0, exclusion_groups=["g"])
    live = emu("live", utility=0.1, exclusion_groups=["g"], order=1)
    selection = select([shadow, live], CTX)
    assert selection.selected == ("live",)
    assert selection.matching == ("live", "shadow")
    assert "never selected" in dict(selection.reasons)["shadow"]


def test_draft_inactive_and_archived_are_not_evaluated_and_no_state_is_live() -> None:
    contenders = [emu(state, state=state, order=i)
                  for i, state in enumerate(["draft", "inactive", "archived", "canary"])]
    contenders.append(emu("unspecified", state=None, order=9))
    selection = select(contenders, CTX)
    assert selection.matching == selection.selected == ("canary", "unspecified")


def test_require_human_and_a_missing_idempotency_scope_suppress_selection() -> None:
    human = emu("human", mode="require_human")
    scoped = emu("scoped", order=1, idempotency={"enabled": True, "scope": ["req.id"]})
    selection = select([human, scoped], CTX)
    assert selection.selected == ()
    reasons = dict(selection.reasons)
    assert "human_consent" in reasons["human"] and "'req.id' is missing" in reasons["scoped"]
    with_scope = EvalContext(state={"a.b": 1, "req.id": 0}, tags={}, events=(), now=CONTEXT_NOW)
    assert select([scoped], with_scope).selected == ("scoped",)  # zero is a valid value


def test_a_non_matching_emu_is_not_in_the_selection() -> None:
    assert select([emu("other", trigger="state.z.z EXISTS")], CTX).matching == ()


# ---- the corpus ----------------------------------------------------------------------------

def test_the_always_outscored_emu_is_reported_with_a_witness_context() -> None:
    report = fuzz_policies(policies(POLICIES / "arbitration"), config=FAST)
    (point,) = report.decision_points
    standings = {s.emu_key: s for s in point.standings}
    urgent = standings["support.route_enterprise_urgent"]
    assert urgent.win is None and urgent.searched and urgent.tried > 0
    assert "support.route_enterprise_urgent" in urgent.loss.matching
    assert "support.route_enterprise_urgent" not in urgent.loss.selected
    assert "support.route_enterprise" in urgent.loss.selected
    assert dict(urgent.loss.context.state) == {"customer.tier": "enterprise", "ticket.id": "x",
                                              "ticket.priority": "urgent"}
    assert standings["support.route_enterprise"].win is not None
    assert standings["support.route_general"].win is not None


def test_the_json_arbitration_lists_the_losing_context() -> None:
    code, document = fuzz_json(str(POLICIES / "arbitration"))
    assert code == 0
    losing = [entry for entry in document["arbitration"]
              if "support.route_enterprise_urgent" in entry["matching"]]
    assert losing and all("support.route_enterprise_urgent" not in e["selected"]
                          for e in losing)
    assert all(e["decision_point"] == "support.route" for e in document["arbitration"])
    shadow = [e for e in document["arbitration"]
              if "support.route_fraud_review" in e["matching"]]
    assert shadow and all("support.route_fraud_review" not in e["selected"] for e in shadow)
