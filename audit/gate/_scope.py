"""Which files a finding's evidence touches, for `--changed-since`.

The whole graph is always built (cross-file paths need it); only the report is narrowed, to the
findings whose evidence touches a changed file: the primary location, the related locations, or
any site on the proposal → effect path.
"""

from __future__ import annotations

from collections.abc import Mapping

from topo.analyzers.model import Site
from topo.audit.model import Finding

__all__ = ["evidence_files", "touches"]


def evidence_files(finding: Finding, sites: Mapping[str, Site]) -> frozenset[str]:
    files = {finding.location.file, *(location.file for location in finding.related)}
    files.update(sites[site_id].location.file for site_id in finding.path if site_id in sites)
    return frozenset(files)


def touches(finding: Finding, sites: Mapping[str, Site], changed: frozenset[str]) -> bool:
    return not evidence_files(finding, sites).isdisjoint(changed)
