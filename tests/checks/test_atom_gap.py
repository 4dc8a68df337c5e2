"""ATOM-GAP: each caller of a decision point against each required trigger dependency."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.checks.atom_gap import required_atoms
from topo.audit.dsl import parse_trigger
from emu_repos import emu, findings

DIRECTIVE = {"type": "context_directive", "directive": "Offer the discount."}
HEADER = ("from memrail import AMIClient\nfrom memrail.atoms import state, tag\n\n"
          'client = AMIClient(project="billing")\n\n\n'
          "def directives(decision):\n"
          '    return [item.action["directive"] for item in decision.selected]\n\n\n')


def _gaps(root: Path, trigger: str, body: str, extra: dict[str, str] | None = None) -> list:
    files = {"app.py": HEADER + body, **(extra or {})}
    return findings(root, "ATOM-GAP", files, [emu(trigger, action=DIRECTIVE)])


def _decide(function: str, context: str) -> str:
    return (f"def {function}(request):\n"
            f'    decision = client.decide(decision_point="billing.refund", context={context})\n'
            f"    return directives(decision)\n\n\n")


def test_required_atoms_skip_negation_and_single_or_branches() -> None:
    ast = parse_trigger("state.a.b > 1 AND (tag.k == 'x' OR state.c.d EXISTS) "
                        "AND NOT state.e.f AND (tag.g == 'y' OR tag.g == 'z')").ast
    assert [n.accessor for n in required_atoms(ast)] == ["state.a.b", "tag.g"]


def test_two_callers_one_missing_the_atom(tmp_path: Path) -> None:
    body = (_decide("from_web", '[state("customer.tier", request.tier), tag("intent", "x")]')
            + _decide("from_email", '[tag("intent", "x")]'))
    [found] = _gaps(tmp_path, "state.customer.tier == 'gold' AND tag.intent == 'x'", body)
    assert found.symbol == "app.from_email" and found.emu_key == "billing.small_refund"
    assert found.location.file == "app.py" and found.location.line == 17
    assert "`state.customer.tier`" in found.message and "(never built)" in found.message
    assert not found.inferred


def test_context_from_another_package_is_not_claimed(tmp_path: Path) -> None:
    body = ("from crm import customer_atoms\n\n\n"
            + _decide("from_web", "[*customer_atoms(request), tag('intent', 'x')]"))
    assert _gaps(tmp_path, "state.customer.tier == 'gold' AND tag.intent == 'x'", body) == []


def test_context_from_a_parameter_follows_the_callers(tmp_path: Path) -> None:
    body = (_decide("decide_with", "atoms")
            .replace("(request)", "(atoms)")
            + "def from_web(request):\n"
              "    return decide_with([tag('intent', 'x')])\n")
    [found] = _gaps(tmp_path, "state.customer.tier == 'gold' AND tag.intent == 'x'", body)
    assert found.symbol == "app.decide_with" and "(never built)" in found.message


def test_a_parameter_with_no_caller_is_opaque(tmp_path: Path) -> None:
    body = _decide("decide_with", "atoms").replace("(request)", "(atoms)")
    assert _gaps(tmp_path, "state.customer.tier == 'gold'", body) == []


def test_a_computed_dict_hides_only_its_prefix(tmp_path: Path) -> None:
    context = '[*atoms_from_dict(request.customer, "customer"), tag("intent", "x")]'
    body = _decide("from_web", context)
    body = "from memrail import atoms_from_dict\n\n\n" + body
    trigger = "state.customer.tier == 'gold' AND state.refund.amount > 3 AND tag.intent == 'x'"
    [found] = _gaps(tmp_path, trigger, body)
    assert "`state.refund.amount`" in found.message


def test_wrong_kind_state_for_tag(tmp_path: Path) -> None:
    body = _decide("protocol", '[state("ticket.priority", request.priority)]')
    [found] = _gaps(tmp_path, "tag.priority == 'high'", body)
    assert "`state.ticket.priority`" in found.message and "`tag.priority`" in found.message
    assert "(wrong kind)" in found.message


def test_wrong_kind_tag_for_state(tmp_path: Path) -> None:
    body = _decide("protocol", '[tag("priority", request.priority)]')
    [found] = _gaps(tmp_path, "state.ticket.priority == 'high'", body)
    assert "(wrong kind)" in found.message


@pytest.mark.parametrize(("literal", "trigger"), [
    ('"high"', "state.ticket.score > 3"),
    ("True", "state.ticket.score == 'true'"),
    ('"5"', "state.ticket.score IN [5, 6]"),
    ("None", "state.ticket.score EXISTS"),
    ("7", "state.ticket.score STARTS_WITH '7'"),
])
def test_literal_types_that_cannot_satisfy(tmp_path: Path, literal: str, trigger: str) -> None:
    body = _decide("score", f'[state("ticket.score", {literal})]')
    [found] = _gaps(tmp_path, trigger, body)
    assert "(wrong type)" in found.message


@pytest.mark.parametrize(("literal", "trigger"), [
    ('"45"', "state.ticket.score > 3"),          # numeric-looking strings are coerced
    ("True", "state.ticket.score == true"),
    ("5", "state.ticket.score == '5'"),          # coerced when the other side is a number
    ("request.score", "state.ticket.score > 3"),  # dynamic: never judged
    ('"low"', "state.ticket.score == 'high'"),   # same type, other value: not a type gap
])
def test_values_that_may_satisfy_are_not_type_gaps(tmp_path: Path, literal: str,
                                                   trigger: str) -> None:
    body = _decide("score", f'[state("ticket.score", {literal})]')
    assert _gaps(tmp_path, trigger, body) == []


def test_an_if_else_pair_is_not_an_omission(tmp_path: Path) -> None:
    body = ("def build(user):\n"
            "    context = []\n"
            "    if user.active:\n"
            "        context.append(state('user.days', user.days))\n"
            "    else:\n"
            "        context.append(state('user.days', 9999))\n"
            "    return context\n\n\n"
            + _decide("winback", "build(request)"))
    assert _gaps(tmp_path, "state.user.days > 30", body) == []


def test_a_condition_shared_with_the_decision_is_not_an_omission(tmp_path: Path) -> None:
    body = ("def winback(user):\n"
            "    if user.active:\n"
            "        context = [state('user.days', user.days)]\n"
            '        return client.decide(decision_point="billing.refund", context=context)\n'
            "    return None\n")
    # The atom is conditional and the decision sits under the same `if`: always supplied.
    assert _gaps(tmp_path, "state.user.days > 30", body) == []


def test_the_docs_conditional_omission(tmp_path: Path) -> None:
    body = ("def build(user):\n"
            "    context = [state('user.id', user.id)]\n"
            "    if user.last_login_at is not None:\n"
            "        context.append(state('user.days_since_last_login', user.days))\n"
            "    return context\n\n\n"
            + _decide("winback", "build(request)"))
    [found] = _gaps(tmp_path, "state.user.days_since_last_login > 30", body)
    assert "only when `user.last_login_at is not None`" in found.message
    assert "(conditional omission)" in found.message


def test_no_caller_no_finding(tmp_path: Path) -> None:
    assert _gaps(tmp_path, "state.customer.tier == 'gold'", "X = 1\n") == []


def test_corpus_apps(corpus: Path) -> None:
    from topo.audit.pipeline import AuditRequest, run_audit
    ours = {"INVOKE-GAP", "ATOM-GAP", "ACTION-GAP", "COHERENCE-GAP", "BINDING-MISMATCH"}
    winback = run_audit(AuditRequest(root=corpus / "apps" / "conditional_atom", jobs=1))
    found = [(f.code.id, f.location.file, f.location.line) for f in winback.findings
             if f.code.id in ours]
    assert found == [("ATOM-GAP", "winback/context.py", 19)]
    refund = run_audit(AuditRequest(root=corpus / "apps" / "memrail_refund", jobs=1))
    assert [f for f in refund.findings if f.code.id in ours] == []


LITERAL_ADAPTER = ("from typing import Literal\n\nfrom pydantic import TypeAdapter\n\n"
                   'PRIORITY = TypeAdapter(Literal["low", "high"])\n\n\n')


@pytest.mark.parametrize(("literal", "found"), [("'urgent'", 1), ("'HIGH'", 0)])
def test_a_literal_adapter_bounds_the_tag_value(tmp_path: Path, literal: str,
                                                found: int) -> None:
    """`TypeAdapter(Literal[...])` is a taxonomy; tag equality ignores case ('HIGH' matches)."""
    body = LITERAL_ADAPTER + (
        "def triage(request):\n"
        "    priority = PRIORITY.validate_python(request.priority)\n"
        '    decision = client.decide(decision_point="billing.refund",\n'
        '                             context=[tag("priority", priority)])\n'
        "    return directives(decision)\n")
    gaps = _gaps(tmp_path, f"tag.priority == {literal}", body)
    assert len(gaps) == found
    if gaps:
        assert "(outside taxonomy)" in gaps[0].message and "'high', 'low'" in gaps[0].message
        assert gaps[0].unmatchable


def test_one_caller_of_two_outside_the_taxonomy_leaves_the_emu_reachable(tmp_path: Path) -> None:
    body = LITERAL_ADAPTER + (
        "def triage(request):\n"
        "    priority = PRIORITY.validate_python(request.priority)\n"
        '    decision = client.decide(decision_point="billing.refund",\n'
        '                             context=[tag("priority", priority)])\n'
        "    return directives(decision)\n\n\n"
        + _decide("escalate", '[tag("priority", "urgent")]'))
    [gap] = _gaps(tmp_path, "tag.priority == 'urgent'", body)
    assert "(outside taxonomy)" in gap.message and not gap.unmatchable


def test_an_annotation_alone_is_no_taxonomy(tmp_path: Path) -> None:
    body = ("from typing import Literal\n\n\n"
            "def triage(request, priority: Literal['low', 'high']):\n"
            '    decision = client.decide(decision_point="billing.refund",\n'
            '                             context=[tag("priority", priority)])\n'
            "    return directives(decision)\n")
    assert _gaps(tmp_path, "tag.priority == 'urgent'", body) == []


def test_a_plain_other_literal_is_a_value_question(tmp_path: Path) -> None:
    body = _decide("triage", '[state("customer.tier", "silver")]')
    assert _gaps(tmp_path, "state.customer.tier == 'gold'", body) == []


def test_required_events_are_positive_and_not_admitting_zero() -> None:
    ast = parse_trigger("event.a.b.c IN 'P1D' AND NOT event.d.e.f IN 'P1D' AND "
                        "(event.g.h.i IN 'P1D' OR state.x.y EXISTS) AND "
                        "COUNT(event.j.k.l IN 'P7D') > 0 AND COUNT(event.m.n.o IN 'P7D') <= 2 "
                        "AND event.billing.p.q.r IN 'P1D'").ast
    assert [n.accessor for n in required_atoms(ast) if n.kind == "event"] == \
        ["event.a.b.c", "event.j.k.l", "event.billing.p.q.r"]


def test_an_omission_names_the_condition_under_which_the_atom_is_built(tmp_path: Path) -> None:
    body = ("def winback(request):\n"
            '    context = [tag("intent", "x")]\n'
            "    if request.anonymous:\n"
            "        pass\n"
            "    else:\n"
            '        context.append(state("customer.tier", request.tier))\n'
            '    decision = client.decide(decision_point="billing.refund", context=context)\n'
            "    return directives(decision)\n")
    [found] = _gaps(tmp_path, "state.customer.tier == 'gold' AND tag.intent == 'x'", body)
    assert "built only when `not (request.anonymous)`" in found.message
    assert not found.unmatchable    # a condition may still build it
