"""Each finding's trace as a reviewer reads it: the nodes it runs through (entry → proposal →
authority → effect → recording, each in its lane with file and line) and a few lines of the
effect's code. Computed once by the pipeline, so the per-finding view draws exactly these
steps and quotes exactly this excerpt, and the YAML/JSON hold both.

The steps are the finding's `path` (site ids, proposal → effect); a finding without one (a
policy or naming finding) is traced to the sites at its own file and line and to its EMU. The
effect is the path's last executor, else its last step, else the finding's own place. The
excerpt is read from the audited file through the bounded reader (parse-only: nothing runs);
a file that cannot be read leaves the excerpt out, never guessed. A notebook's lines are its
code cells' script, which its locations count (`analyzers/notebooks.py`), not its JSON.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from topo.analyzers.model import Site, SiteKind
from topo.analyzers.notebooks import is_notebook, read_limit, script_lines
from topo.analyzers.reading import DEFAULT_MAX_BYTES, InputRefused, read_text
from topo.audit.graph.relations import Node
from topo.audit.model import Finding
from topo.audit.placement import LANES, Placement

__all__ = ["EXCERPT_CONTEXT", "EXCERPT_WIDTH", "TraceStep", "Excerpt", "FindingTrace",
           "finding_traces", "ROLES"]

EXCERPT_CONTEXT = 2            # lines quoted before and after the effect's line
EXCERPT_WIDTH = 160            # characters kept of each quoted line
# What each lane is on a finding's path (seed 000's edge roles, as a reviewer names them).
ROLES = dict(zip(LANES, ("entry", "proposal", "authority", "effect", "recording")))


@dataclass(frozen=True, slots=True)
class TraceStep:
    node: str                      # a site id or a shown node's id
    lane: str
    role: str                      # ROLES[lane]
    file: str | None
    line: int | None


@dataclass(frozen=True, slots=True)
class Excerpt:
    file: str
    line: int                      # the effect's line
    start: int                     # the first quoted line
    lines: tuple[str, ...]         # quoted lines, each cut to EXCERPT_WIDTH (marked `…`)


@dataclass(frozen=True, slots=True)
class FindingTrace:
    fingerprint: str
    steps: tuple[TraceStep, ...]
    effect: str | None             # the step the excerpt quotes (None: the finding's place)
    excerpt: Excerpt | None


def finding_traces(root: Path, sites: tuple[Site, ...], nodes: tuple[Node, ...],
                   placement: Placement, findings: tuple[Finding, ...], *,
                   max_file_size: int = DEFAULT_MAX_BYTES) -> tuple[FindingTrace, ...]:
    lanes = {spot.node: spot.lane for spot in placement.nodes}
    by_id = {site.id: site for site in sites}
    places = {**{s.id: (s.location.file, s.location.line) for s in sites},
              **{n.id: (n.file, n.line) for n in nodes}}
    at: dict[tuple[str, int], list[str]] = defaultdict(list)
    for site in sites:
        at[(site.location.file, site.location.line)].append(site.id)
    sources = _Sources(root, max_file_size)
    traces = []
    for finding in findings:
        ids = [n for n in dict.fromkeys(finding.path) if n in lanes]
        if not ids:
            ids = [*at.get((finding.location.file, finding.location.line), ())]
            if finding.emu_key and f"emu:{finding.emu_key}" in lanes:
                ids.append(f"emu:{finding.emu_key}")
            ids.sort(key=lambda n: (LANES.index(lanes[n]), n))
        steps = tuple(TraceStep(n, lanes[n], ROLES[lanes[n]], *places.get(n, (None, None)))
                      for n in ids)
        effect = _effect(steps, by_id)
        file, line = (places[effect] if effect else
                      (finding.location.file, finding.location.line))
        traces.append(FindingTrace(finding.fingerprint, steps, effect,
                                   sources.excerpt(file, line)))
    return tuple(traces)


def _effect(steps: tuple[TraceStep, ...], sites: dict[str, Site]) -> str | None:
    executors = [s.node for s in steps if s.node in sites
                 and sites[s.node].kind is SiteKind.EXECUTOR]
    if executors:
        return executors[-1]
    located = [s.node for s in steps if s.file and s.line]
    return located[-1] if located else None


class _Sources:
    """The audited files' lines, each file read at most once per run."""

    def __init__(self, root: Path, limit: int) -> None:
        self._root, self._limit = root, limit
        self._lines: dict[str, list[str] | None] = {}

    def excerpt(self, file: str | None, line: int | None) -> Excerpt | None:
        if not file or not line or line < 1:
            return None
        lines = self._read(file)
        if lines is None or line > len(lines):
            return None
        start = max(1, line - EXCERPT_CONTEXT)
        quoted = lines[start - 1:line + EXCERPT_CONTEXT]
        return Excerpt(file, line, start, tuple(_cut(text) for text in quoted))

    def _read(self, file: str) -> list[str] | None:
        if file not in self._lines:
            try:
                text = read_text(self._root / file, limit=read_limit(file, self._limit),
                                 root=self._root)
            except (InputRefused, OSError, ValueError):
                text = None
            if text is None:
                self._lines[file] = None
            else:
                self._lines[file] = script_lines(text) if is_notebook(file) else text.splitlines()
        return self._lines[file]


def _cut(text: str) -> str:
    text = text.rstrip().expandtabs(4)
    return text if len(text) <= EXCERPT_WIDTH else text[:EXCERPT_WIDTH - 1] + "…"
