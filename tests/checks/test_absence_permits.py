"""ABSENCE-PERMITS: absence that permits a consequential action, shown with a context."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from topo.audit.checks._emus import parsed_emus
from topo.audit.checks.absence_permits import _permissions
from topo.audit.dsl import evaluate, format_trigger
from topo.audit.triggers.atoms import ABSENT, value_of, with_value
from topo.audit.triggers.strategies import triggers
from topo.analyzers.model import Location
from topo.audit.policy import Emu
from emu_repos import TOOL, emu, findings

BANNED = "state.refund.request_id EXISTS AND NOT state.user.banned"
ROUTE = {"type": "route", "destination": "queue.auto_close"}
DIRECTIVE = {"type": "context_directive", "directive": "Be brief."}
READ_ONLY = {"type": "tool_call", "intent": "FORMAT",
             "tool": {"tool_id": "format_greeting", "version": "1.0.0", "side_effect": False}}


def _absences(root: Path, trigger: str, **kwargs) -> list:
    return findings(root, "ABSENCE-PERMITS", {}, [emu(trigger, **kwargs)])


def test_a_negated_flag_on_a_side_effecting_tool(tmp_path: Path) -> None:
    [found] = _absences(tmp_path, BANNED)
    assert found.message == (
        "EMU `billing.small_refund` selects side-effecting tool `refund_payment` while "
        "`state.user.banned` is absent (e.g. with `state.refund.request_id` = 'x'), though "
        "`state.user.banned` = true makes its trigger false")
    assert found.emu_key == "billing.small_refund" and found.location.line == 1


def test_an_or_branch_that_matches_without_the_input(tmp_path: Path) -> None:
    trigger = ("state.refund.request_id EXISTS AND "
               "(tag.intent == 'refund_request' OR NOT state.user.banned)")
    [found] = _absences(tmp_path, trigger)
    assert "`state.user.banned` is absent" in found.message


def test_a_route_is_consequential(tmp_path: Path) -> None:
    assert len(_absences(tmp_path, BANNED, action=ROUTE)) == 1


@pytest.mark.parametrize("kwargs", [{"action": DIRECTIVE}, {"action": READ_ONLY},
                                    {"mode": "require_human"}, {"mode": "advisory"}])
def test_actions_that_do_not_act_on_their_own_are_not_checked(tmp_path: Path, kwargs) -> None:
    assert _absences(tmp_path, BANNED, **kwargs) == []


@pytest.mark.parametrize("trigger", [
    "state.user.banned EXISTS AND NOT state.user.banned",
    "state.refund.request_id EXISTS AND state.user.banned == false",
    "state.refund.request_id EXISTS AND (state.refund.amount > 500 OR tag.intent == 'fraud')",
    "state.refund.request_id EXISTS AND NOT event.agent.issued.refund "
    "WHERE request_id == '{{refund.request_id}}' IN 'P7D'",
])
def test_no_permission_from_absence(tmp_path: Path, trigger: str) -> None:
    assert _absences(tmp_path, trigger) == []


def test_an_unsatisfiable_trigger_permits_nothing(tmp_path: Path) -> None:
    trigger = "NOT state.user.banned AND state.refund.amount > 5 AND state.refund.amount < 2"
    assert _absences(tmp_path, trigger) == []


def test_the_default_tool_is_side_effecting() -> None:
    assert TOOL["type"] == "tool_call" and "side_effect" not in TOOL["tool"]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.nested_given])
@given(triggers())
def test_every_permission_is_shown_by_its_context(ast) -> None:
    """Soundness on any trigger: the input is absent and the trigger true in the witness, and
    the blocking value makes the same context false."""
    raw = {"emu_key": "k.x", "trigger": format_trigger(ast), "action": TOOL}
    [parsed] = parsed_emus([Emu.from_object(raw, Location("emus/emus.jsonl", 1))])
    for atom, witness, blocker in _permissions(parsed):
        assert value_of(witness, atom) is ABSENT and evaluate(ast, witness)
        assert not evaluate(ast, with_value(witness, atom, blocker))
