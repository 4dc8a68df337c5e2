"""EMUs that can never fire fail the gate; their reachable twins pass (issue: "Reachability the
gate misses"). Each pair is a golden check fixture; here the whole `topo check` runs on it, and
the reachability matrix of `topo audit` says `no` for the unreachable EMU, with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.gate.gate_helpers import CHECKS, check, topo

# (fixture pair, the EMU that cannot match in the bad twin, text of the reason)
SHAPES = [
    ("ATOM-GAP/{}_idempotency_scope", "support.escalate_once", "idempotency scope"),
    ("ATOM-GAP/{}_idempotency_scope_ts", "support.escalate_once", "idempotency scope"),
    ("ATOM-GAP/{}_event_never_emitted", "billing.loyal_discount", "never emitted"),
    ("ATOM-GAP/{}_event_never_emitted_ts", "billing.loyal_discount", "never emitted"),
    ("ATOM-GAP/{}_outside_taxonomy", "support.urgent_page", "outside taxonomy"),       # Enum
    ("ATOM-GAP/{}_outside_literal", "support.refund_route", "outside taxonomy"),       # Literal
    ("ATOM-GAP/{}_outside_taxonomy_ts", "support.refund_route", "outside taxonomy"),   # z.enum
    ("ATOM-GAP/{}_outside_allowed_set", "sales.enterprise_lead", "outside taxonomy"),  # `in`
    ("ATOM-GAP/{}_outside_allowed_set_ts", "sales.enterprise_lead", "outside taxonomy"),
    ("ATOM-GAP/{}_case_mismatch", "support.gold_priority", "wrong case"),
    ("ATOM-GAP/{}_case_mismatch_ts", "support.gold_priority", "wrong case"),
    ("INVOKE-GAP/{}_unbound_emu", "support.tone", "bound to no decision point"),
    ("INVOKE-GAP/{}_unbound_emu_ts", "support.tone", "bound to no decision point"),
]


def _matrix(root: Path, tmp_path: Path) -> dict[str, dict]:
    out = tmp_path / "out"
    run = topo("audit", root, "--no-cache", "-j", "1", "-f", "json", "-o", f"{out}/", "-q")
    assert run.exit_code in (0, 1), run.stderr
    document = json.loads((out / "TOPOLOGY_STATE.json").read_text())
    return {row["emu_key"]: row for row in document["reachability"]}


@pytest.mark.parametrize(("pair", "emu", "reason"), SHAPES, ids=[s[0] for s in SHAPES])
def test_an_unreachable_emu_fails_the_gate(pair: str, emu: str, reason: str,
                                           tmp_path: Path) -> None:
    bad = CHECKS / pair.format("bad")
    run = check(bad)
    assert run.exit_code == 1, run.stdout
    row = _matrix(bad, tmp_path)[emu]
    assert row["trigger_reachable"] == "no"
    assert any(reason in why for why in row["why"]), row["why"]


@pytest.mark.parametrize(("pair", "emu", "reason"), SHAPES, ids=[s[0] for s in SHAPES])
def test_its_reachable_twin_passes(pair: str, emu: str, reason: str, tmp_path: Path) -> None:
    good = CHECKS / pair.format("good")
    run = check(good)
    assert run.exit_code == 0, run.stdout
    row = _matrix(good, tmp_path)[emu]
    assert row["trigger_reachable"] == "yes" and row["why"] == []
