"""What the report says about findings beyond each finding itself: the decision point each one
concerns, and the hidden-authority places (one per file and line, with the authority site
there). Computed once by the pipeline; findings are named by fingerprint.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.model import Site, SiteKind
from topo.audit.contracts import UNKNOWN
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["FindingFacts", "HiddenAuthority", "finding_facts", "NO_POINT"]

NO_POINT = "none"
_AUTHORITY_KINDS = (SiteKind.THRESHOLD, SiteKind.MODEL_BRANCH,
                    SiteKind.PROMPT_POLICY, SiteKind.APPROVAL_GATE)


@dataclass(frozen=True, slots=True)
class HiddenAuthority:
    """One place with HIDDEN-AUTHORITY findings; symbol, message and `inferred` are the first
    finding's, `site` the first authority site on that line (None when there is none)."""

    file: str
    line: int
    symbol: str
    site: str | None
    message: str
    inferred: bool
    findings: tuple[str, ...]          # fingerprints, in report order


@dataclass(frozen=True, slots=True)
class FindingFacts:
    points: tuple[tuple[str, str], ...] = ()   # fingerprint -> decision point (or NO_POINT)
    hidden_authority: tuple[HiddenAuthority, ...] = ()   # by file and line


def finding_facts(sites: tuple[Site, ...], emus: Iterable[Emu],
                  findings: tuple[Finding, ...]) -> FindingFacts:
    by_id = {site.id: site for site in sites}
    bound = {emu.emu_key: emu.decision_point for emu in emus}
    return FindingFacts(
        tuple((f.fingerprint, _point(f, by_id, bound)) for f in findings),
        _hidden_authority(sites, findings))


def _point(finding: Finding, sites: dict[str, Site], bound: dict[str, str | None]) -> str:
    """The decision point a finding concerns: its EMU's, else one called on its path."""
    if finding.emu_key:
        return bound.get(finding.emu_key) or NO_POINT
    for site_id in finding.path:
        site = sites.get(site_id)
        if site is not None and site.kind is SiteKind.DECISION_CALL:
            return str(site.attr("decision_point") or UNKNOWN)
    return NO_POINT


def _hidden_authority(sites: tuple[Site, ...], findings: tuple[Finding, ...]
                      ) -> tuple[HiddenAuthority, ...]:
    places: dict[tuple[str, int], HiddenAuthority] = {}
    for finding in findings:
        if finding.code.id != "HIDDEN-AUTHORITY":
            continue
        key = (finding.location.file, finding.location.line)
        known = places.get(key)
        if known is None:
            site = next((s.id for s in sites if (s.location.file, s.location.line) == key
                         and s.kind in _AUTHORITY_KINDS), None)
            known = HiddenAuthority(*key, finding.symbol, site, finding.message,
                                    finding.inferred, ())
        places[key] = HiddenAuthority(*key, known.symbol, known.site, known.message,
                                      known.inferred, (*known.findings, finding.fingerprint))
    return tuple(places[key] for key in sorted(places))
