"""BINDING-MISMATCH: near-miss decision point names, and the names that are not near-misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.checks.binding_mismatch import edit_distance, near_miss
from emu_repos import emu, findings

DIRECTIVE = {"type": "context_directive", "directive": "Offer the refund."}


def _app(point: str) -> str:
    return ("from memrail import AMIClient\nfrom memrail.atoms import state\n\n"
            'client = AMIClient(project="billing")\n\n\n'
            "def guidance(ticket):\n"
            f"    decision = client.decide(decision_point={point!r},\n"
            "                             context=[state('refund.request_id', ticket.id)])\n"
            '    return [item.action["directive"] for item in decision.selected]\n')


@pytest.mark.parametrize("called", ["billing_refund", "Billing.Refund", "billing-refund",
                                    "billing.refunds", "biling.refund"])
def test_near_misses_are_found(tmp_path: Path, called: str) -> None:
    [found] = findings(tmp_path, "BINDING-MISMATCH", {"app.py": _app(called)},
                       [emu("state.refund.request_id EXISTS", action=DIRECTIVE)])
    assert (found.location.file, found.location.line, found.symbol) == ("app.py", 8, "app.guidance")
    assert f"`{called}`" in found.message and "`billing.refund`" in found.message
    assert "`billing.small_refund`" in found.message


@pytest.mark.parametrize("called", ["billing.refund", "support.triage", "billing.chargeback"])
def test_exact_or_distant_names_are_not(tmp_path: Path, called: str) -> None:
    assert findings(tmp_path, "BINDING-MISMATCH", {"app.py": _app(called)},
                    [emu("state.refund.request_id EXISTS", action=DIRECTIVE)]) == []


def test_no_emus_no_finding(tmp_path: Path) -> None:
    assert findings(tmp_path, "BINDING-MISMATCH", {"app.py": _app("billing_refund")}, []) == []


def test_near_miss_prefers_folded_equality() -> None:
    assert near_miss("support_refund", ["support.refund", "support_refunds"]) == "support.refund"
    assert near_miss("ops.v3", ["ops.v1", "ops.v2"]) == "ops.v1"
    assert near_miss("billing.refund", ["support.triage"]) is None


def test_edit_distance() -> None:
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == 3
    assert edit_distance("same", "same") == 0
