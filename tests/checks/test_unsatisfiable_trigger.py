"""UNSATISFIABLE-TRIGGER: a proof from topo fuzz's contradiction finder, or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from emu_repos import emu, findings


def _dead(root: Path, trigger: str) -> list:
    return findings(root, "UNSATISFIABLE-TRIGGER", {}, [emu(trigger)])


def test_contradictory_bounds(tmp_path: Path) -> None:
    [found] = _dead(tmp_path, "state.refund.amount > 7500 AND state.refund.amount <= 5000")
    assert found.message == ("the trigger of EMU `billing.small_refund` can never be true: no "
                             "value of state.refund.amount satisfies > 7500, <= 5000")
    assert found.emu_key == "billing.small_refund"


@pytest.mark.parametrize("trigger", [
    "state.refund.request_id EXISTS AND NOT state.refund.request_id EXISTS",
    "(state.user.tier == 'gold' AND state.user.tier == 'silver') OR "
    "(state.a.b > 2 AND state.a.b < 1)",
])
def test_other_contradictions(tmp_path: Path, trigger: str) -> None:
    assert len(_dead(tmp_path, trigger)) == 1


@pytest.mark.parametrize("trigger", [
    "state.refund.amount > 2 AND state.refund.amount < 3",
    "(state.a.b > 2 AND state.a.b < 1) OR state.a.b == 5",
    # Unsatisfiable, but outside the decidable fragment: unknown is not a finding.
    "state.a.b > state.c.d AND state.a.b < state.c.d",
])
def test_no_proof_no_finding(tmp_path: Path, trigger: str) -> None:
    assert _dead(tmp_path, trigger) == []
