"""The headline counts of an audit that are facts, not list lengths: decision points,
consequential paths, gaps by kind and hidden-authority sites (seed 000's summary). Computed
once by the pipeline; the document and the views show them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.model import Edge, EdgeKind, Site, SiteKind
from topo.audit.graph.chains import Reach
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["GAP_CODES", "AuditSummary", "audit_summary"]

# Summary key -> the code whose findings it counts.
GAP_CODES = {"invoke_gaps": "INVOKE-GAP", "atom_gaps": "ATOM-GAP", "action_gaps": "ACTION-GAP",
             "coherence_gaps": "COHERENCE-GAP"}


@dataclass(frozen=True, slots=True)
class AuditSummary:
    decision_points: int = 0           # named by a decision call or bound by an EMU
    consequential_paths: int = 0       # (entry, executor) chains some model output shapes
    gaps: tuple[tuple[str, int], ...] = tuple((name, 0) for name in GAP_CODES)
    hidden_authority_sites: int = 0    # places with a HIDDEN-AUTHORITY finding


def audit_summary(sites: tuple[Site, ...], edges: tuple[Edge, ...], emus: Iterable[Emu],
                  findings: tuple[Finding, ...], reach: Reach | None = None) -> AuditSummary:
    """`reach` is the run's chain query: a consequential path is a call chain from an entry to
    an executor that model output shapes (a model-invoked tool, a model-chosen dispatch, model
    output in a guard or an argument), counted once per entry and executor. Without it, the
    executors a model output reaches directly are counted."""
    codes = [f.code.id for f in findings]
    points = {str(s.attr("decision_point")) for s in sites
              if s.kind is SiteKind.DECISION_CALL and s.attr("decision_point")}
    points |= {e.decision_point for e in emus if e.decision_point}
    executors = {s.id for s in sites if s.kind is SiteKind.EXECUTOR}
    hidden = {(f.location.file, f.location.line) for f in findings
              if f.code.id == "HIDDEN-AUTHORITY"}
    return AuditSummary(
        decision_points=len(points),
        consequential_paths=_paths(reach, sites) if reach is not None else
        len({e.target for e in edges if e.kind is EdgeKind.INFERENCE and e.target in executors}),
        gaps=tuple((name, codes.count(code)) for name, code in GAP_CODES.items()),
        hidden_authority_sites=len(hidden))


def _paths(reach: Reach, sites: tuple[Site, ...]) -> int:
    return len({(chain.entry, site.id) for site in sites if site.kind is SiteKind.EXECUTOR
                for chain in reach.of(site) if chain.influenced})
