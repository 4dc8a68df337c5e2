"""Which findings are new relative to a base revision, for `--changed-since`.

Both revisions are audited whole and compared by fingerprint (`fingerprint(finding, 0)`: code,
file, symbol chain, normalised snippet; never a line number), with occurrence counts, as the
baseline compares them: a comment added above an old finding moves it without making it new,
and a second copy of an old finding is new. A finding the base suppressed in source counts as
absent there, so deleting a suppression brings its finding back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from topo.audit.fingerprint import fingerprint
from topo.audit.model import Finding

__all__ = ["new_findings"]


def new_findings(findings: Iterable[Finding], base: Iterable[Finding]) -> tuple[Finding, ...]:
    """`findings` (in order) less those the base already had; within a group of identical
    twins the first ones are the old ones."""
    remaining: Counter[str] = Counter(fingerprint(f, 0) for f in base if f.suppression is None)
    new = []
    for finding in findings:
        key = fingerprint(finding, 0)
        if remaining[key] > 0:
            remaining[key] -= 1
            continue
        new.append(finding)
    return tuple(new)
