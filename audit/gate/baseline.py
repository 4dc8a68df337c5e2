"""Baselines: the findings a repository already had when it adopted the gate.

A baseline lists fingerprints with occurrence counts. Findings are grouped by the fingerprint
of their first twin (`fingerprint(finding, 0)`: code, file, symbol chain, normalised snippet;
no line numbers, so moved code still matches); a group may hide as many findings as the
baseline counted, so a *second* identical finding is still new (LLMSafe's duplicate-aware
baseline; Bandit's baseline misses it). The file is sorted JSON with a versioned schema, so it
diffs well in review.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from topo.analyzers.reading import InputRefused, load_json, read_text
from topo.audit.fingerprint import SCHEME, fingerprint
from topo.audit.model import Finding, Suppression, SuppressionKind

__all__ = ["BASELINE_SCHEMA", "Baseline", "BaselineEntry", "BaselineError", "baseline_of",
           "read_baseline", "write_baseline", "render_baseline", "apply_baseline"]

BASELINE_SCHEMA = "topo-baseline/1"
# A baseline of 100,000 findings is about 25 MB; anything larger is not one.
MAX_BASELINE_BYTES = 64 * 1024 * 1024


class BaselineError(Exception):
    """The baseline file cannot be read or written, or is not a topo baseline."""


@dataclass(frozen=True, slots=True)
class BaselineEntry:
    fingerprint: str          # the first twin's fingerprint
    count: int                # how many identical findings the baseline accepts
    code: str = ""            # code, file and symbol: for reviewers; matching ignores them
    file: str = ""
    symbol: str = ""


@dataclass(frozen=True, slots=True)
class Baseline:
    entries: tuple[BaselineEntry, ...] = ()

    def counts(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for entry in self.entries:
            counts[entry.fingerprint] += entry.count
        return counts


def _group(finding: Finding) -> str:
    return fingerprint(finding, 0)


def baseline_of(findings: Iterable[Finding]) -> Baseline:
    """The baseline accepting every finding not already suppressed in source."""
    counts: Counter[str] = Counter()
    first: dict[str, Finding] = {}
    for finding in findings:
        if finding.suppression is not None:
            continue
        key = _group(finding)
        counts[key] += 1
        first.setdefault(key, finding)
    entries = (BaselineEntry(key, counts[key], first[key].code.id, first[key].location.file,
                             first[key].symbol) for key in counts)
    return Baseline(tuple(sorted(entries, key=lambda e: (e.file, e.code, e.symbol,
                                                         e.fingerprint))))


def apply_baseline(findings: Iterable[Finding], baseline: Baseline, *, name: str
                   ) -> tuple[Finding, ...]:
    """The findings, in order, with those the baseline accepts marked `external`. Within a
    group of twins the first ones (in report order) are the accepted ones."""
    remaining = baseline.counts()
    marked = []
    for finding in findings:
        key = _group(finding) if finding.suppression is None else None
        if key is not None and remaining[key] > 0:
            remaining[key] -= 1
            finding = replace(finding, suppression=Suppression(
                SuppressionKind.EXTERNAL, f"accepted in baseline {name}"))
        marked.append(finding)
    return tuple(marked)


def render_baseline(baseline: Baseline) -> str:
    document = {
        "schema": BASELINE_SCHEMA,
        "fingerprint_scheme": SCHEME,
        "findings": [{"fingerprint": e.fingerprint, "count": e.count, "code": e.code,
                      "file": e.file, "symbol": e.symbol} for e in baseline.entries],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_baseline(path: Path, baseline: Baseline) -> None:
    """Write atomically: a failed write never leaves half a baseline behind."""
    directory = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.",
                                             suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(render_baseline(baseline))
        os.replace(temporary, path)
    except OSError as error:
        raise BaselineError(f"cannot write baseline {path}: {error.strerror or error}") from None


def read_baseline(path: Path) -> Baseline:
    """The baseline in `path`: a regular file of at most `MAX_BASELINE_BYTES` (a FIFO or a
    device is refused before it is opened)."""
    try:
        data = load_json(read_text(path, limit=MAX_BASELINE_BYTES))
    except InputRefused as refused:
        hint = " (create it with --write-baseline)" if refused.reason == "no such file" else ""
        raise BaselineError(f"baseline {path}: {refused.reason}{hint}") from None
    except json.JSONDecodeError as error:
        raise BaselineError(f"baseline {path}:{error.lineno}:{error.colno}: invalid JSON: "
                            f"{error.msg}") from None
    return _parse(data, path)


def _parse(data: object, path: Path) -> Baseline:
    if not isinstance(data, dict) or data.get("schema") != BASELINE_SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise BaselineError(f"baseline {path}: not a {BASELINE_SCHEMA} document "
                            f"(schema: {found!r})")
    if data.get("fingerprint_scheme") != SCHEME:
        raise BaselineError(f"baseline {path}: written with fingerprint scheme "
                            f"{data.get('fingerprint_scheme')!r}, this topo uses {SCHEME!r}; "
                            "write it again with --write-baseline")
    rows = data.get("findings")
    if not isinstance(rows, list):
        raise BaselineError(f"baseline {path}: 'findings' must be a list")
    return Baseline(tuple(_entry(row, index, path) for index, row in enumerate(rows)))


def _entry(row: object, index: int, path: Path) -> BaselineEntry:
    where = f"baseline {path}: findings[{index}]"
    if not isinstance(row, dict):
        raise BaselineError(f"{where}: expected an object")
    value, count = row.get("fingerprint"), row.get("count", 1)
    if not isinstance(value, str) or not value.startswith(f"{SCHEME}:"):
        raise BaselineError(f"{where}: 'fingerprint' must be a {SCHEME}: string")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise BaselineError(f"{where}: 'count' must be a whole number of at least 1")
    return BaselineEntry(value, count, *(str(row.get(key, "")) for key in
                                         ("code", "file", "symbol")))
