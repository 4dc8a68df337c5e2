"""The gate's counts are the gate's facts (`GateOutcome.counts`, audit/gate); `topo check`'s
text summary and json `gate.counts` only show them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from topo.audit.gate import GateCounts, GateOutcome, GateRequest, run_gate
from topo.audit.pipeline import AuditRequest
from topo.reports.gate_report import gate_document, gate_summary

APP = Path(__file__).resolve().parents[2] / "corpus" / "apps" / "openai_threshold_refund"


@dataclasses.dataclass(frozen=True)
class _Told(GateOutcome):
    """An outcome whose counts say what the test tells them to."""

    told: GateCounts | None = None

    @property
    def counts(self) -> GateCounts:
        return self.told


def _outcome() -> GateOutcome:
    return run_gate(GateRequest(AuditRequest(root=APP, jobs=1, cache_dir=None)))


def test_the_gate_counts_what_it_reported() -> None:
    outcome = _outcome()
    assert outcome.counts == GateCounts(
        reported=len(outcome.result.findings), active=len(outcome.active),
        failing=len(outcome.failing), suppressed_in_source=0, baselined=0, outside_changes=0,
        unknowns=0)
    assert outcome.counts.reported > 0


def test_the_reports_show_the_gate_counts_and_count_nothing() -> None:
    outcome = _outcome()
    counts = GateCounts(reported=70, active=60, failing=50, suppressed_in_source=4,
                        baselined=6, outside_changes=0, unknowns=0)
    told = _Told(**{f.name: getattr(outcome, f.name) for f in dataclasses.fields(GateOutcome)},
                 told=counts)
    assert gate_document(told)["gate"]["counts"] == dataclasses.asdict(counts)
    summary = gate_summary(told)
    assert "60 reported, 4 suppressed in source, 6 in the baseline" in summary
