"""Stable finding fingerprints (findings.md): code + file + symbol chain + normalised snippet.

Line numbers never enter the hash, so a finding keeps its identity when unrelated lines move or
the code is re-indented. Identical twins (same code, file, symbol and snippet) get an occurrence
counter in their sorted order, so a second copy of a finding is still a new finding.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from topo.audit.model import Finding

__all__ = ["fingerprint", "with_fingerprints", "normalize_snippet", "SCHEME"]

SCHEME = "fp1"
# A trailing suppression comment must not change a finding's identity.
_SUPPRESSION = re.compile(r"\s*(#|//)\s*topo:\s*ignore\b.*$")


def normalize_snippet(snippet: str) -> str:
    """Strip suppression comments and trailing blanks, dedent, drop blank lines."""
    lines = [_SUPPRESSION.sub("", line).rstrip() for line in snippet.splitlines()]
    return textwrap.dedent("\n".join(line for line in lines if line.strip()))


def fingerprint(finding: Finding, occurrence: int = 0) -> str:
    parts = (finding.code.id, finding.location.file, finding.symbol, finding.emu_key or "",
             normalize_snippet(finding.snippet), str(occurrence))
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{SCHEME}:{digest}"


def with_fingerprints(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The findings, in their given order, each with its fingerprint filled in."""
    seen: Counter[tuple[str, ...]] = Counter()
    result = []
    for finding in findings:
        key = (finding.code.id, finding.location.file, finding.symbol, finding.emu_key or "",
               normalize_snippet(finding.snippet))
        result.append(replace(finding, fingerprint=fingerprint(finding, seen[key])))
        seen[key] += 1
    return tuple(result)
