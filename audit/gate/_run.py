"""The gate's run and verdict (see the package docstring for the order of the steps)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from pathlib import Path

from topo.analyzers.discovery.inventory import kept_by
from topo.audit.gate._new import new_findings
from topo.audit.gate.baseline import (BaselineError, apply_baseline, baseline_of, read_baseline,
                                      write_baseline)
from topo.audit.model import Finding, Severity, SuppressionKind
from topo.audit.pipeline import AuditError, AuditRequest, AuditResult, run_audit
from topo.audit.progress import NO_PROGRESS, Progress
from topo.audit.revision_tree import base_tree
from topo.audit.vcs import VcsError, changed_files

__all__ = ["GateRequest", "GateOutcome", "GateCounts", "GateStatus", "GateError", "run_gate"]


class GateError(Exception):
    """The gate could not run: bad baseline, unknown revision, missing git, unreadable root."""


class GateStatus(enum.Enum):
    PASSED = "passed"        # nothing unsuppressed at or above the threshold
    FAILED = "failed"        # something is
    PARTIAL = "partial"      # some input could not be read: no verdict (exit 2)


_EXIT = {GateStatus.PASSED: 0, GateStatus.FAILED: 1, GateStatus.PARTIAL: 2}


@dataclass(frozen=True, slots=True)
class GateRequest:
    audit: AuditRequest
    fail_on: Severity = Severity.HIGH
    baseline: Path | None = None
    write_baseline: Path | None = None
    changed_since: str | None = None
    allow_partial: bool = False     # gate on what could be read instead of exit 2
    exit_zero: bool = False         # report only: exit 0 whatever the verdict


@dataclass(frozen=True, slots=True)
class GateCounts:
    """How many findings the gate reported, and what became of them."""

    reported: int
    active: int                     # reported and not suppressed
    failing: int                    # active, at or above the threshold
    suppressed_in_source: int
    baselined: int
    outside_changes: int            # left out by `changed_since`: the base revision had them
    unknowns: int                   # inputs that could not be read


@dataclass(frozen=True, slots=True)
class GateOutcome:
    """`result.findings` holds every finding, suppressed ones marked (in source or baseline);
    `reported` those the gate reports: all of them, or those new since `changed_since`
    (`base_commit` is the merge base they were compared with)."""

    request: GateRequest
    result: AuditResult
    reported: tuple[Finding, ...]
    changed: frozenset[str] | None = None
    baseline_used: Path | None = None
    baseline_written: Path | None = None
    notes: tuple[str, ...] = ()
    base_commit: str | None = None

    @property
    def active(self) -> tuple[Finding, ...]:
        """Reported findings that no directive or baseline suppresses."""
        return tuple(f for f in self.reported if f.suppression is None)

    @property
    def failing(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.active if f.severity >= self.request.fail_on)

    @property
    def outside_changes(self) -> int:
        return len(self.result.findings) - len(self.reported)

    @property
    def counts(self) -> GateCounts:
        kinds = [f.suppression.kind for f in self.reported if f.suppression is not None]
        return GateCounts(
            reported=len(self.reported), active=len(self.active), failing=len(self.failing),
            suppressed_in_source=kinds.count(SuppressionKind.IN_SOURCE),
            baselined=kinds.count(SuppressionKind.EXTERNAL),
            outside_changes=self.outside_changes, unknowns=len(self.result.unknowns))

    @property
    def status(self) -> GateStatus:
        if self.result.partial and not self.request.allow_partial:
            return GateStatus.PARTIAL
        return GateStatus.FAILED if self.failing else GateStatus.PASSED

    @property
    def exit_code(self) -> int:
        return 0 if self.request.exit_zero else _EXIT[self.status]


def run_gate(request: GateRequest, *, progress: Progress = NO_PROGRESS) -> GateOutcome:
    """Audit, apply baseline and scope, and decide. Raises GateError when it cannot run."""
    root = request.audit.root
    base: _Base | None = None
    try:
        baseline = read_baseline(request.baseline) if request.baseline else None
        if request.changed_since is not None:
            progress.stage(f"asking git what changed since {request.changed_since}")
            changed = changed_files(root, request.changed_since)
            base = _audit_base(request, progress)
        else:
            changed = None
        result = run_audit(request.audit, progress=progress)
    except (BaselineError, VcsError, AuditError) as error:
        raise GateError(str(error)) from None
    notes: list[str] = [] if base is None else list(base.notes)
    written = None
    if request.write_baseline is not None:
        if result.partial and not request.allow_partial:
            notes.append(f"baseline {request.write_baseline} not written: the scan is partial "
                         "(--allow-partial writes it from what could be read)")
        else:
            baseline = baseline_of(result.findings)
            try:
                write_baseline(request.write_baseline, baseline)
            except BaselineError as error:
                raise GateError(str(error)) from None
            written = request.write_baseline
    used = written or (request.baseline if baseline is not None else None)
    findings = result.findings
    if baseline is not None and used is not None:
        progress.stage("applying the baseline")
        findings = apply_baseline(findings, baseline, name=str(used))
    reported = findings if base is None else new_findings(findings, base.findings)
    return GateOutcome(request, replace(result, findings=findings), reported, changed, used,
                       written, tuple(notes), None if base is None else base.commit)


@dataclass(frozen=True, slots=True)
class _Base:
    commit: str
    findings: tuple[Finding, ...]
    notes: tuple[str, ...]


def _audit_base(request: GateRequest, progress: Progress) -> _Base:
    """The findings of the merge base of `changed_since` and HEAD, audited with the same
    options from a temporary copy outside the audited tree."""
    revision = request.changed_since
    with base_tree(request.audit.root, revision, kept_by(request.audit.discovery)) as tree:
        progress.stage(f"auditing {revision} (merge base {tree.commit[:12]}, {tree.files} files)")
        try:
            result = run_audit(replace(request.audit, root=tree.root), progress=progress)
        except AuditError as error:
            raise GateError(f"the base revision {revision} could not be audited: "
                            f"{error}") from None
    notes = []
    if result.unknowns:
        notes.append(f"{len(result.unknowns)} input(s) of {revision} could not be read; "
                     "findings there count as new")
    return _Base(tree.commit, result.findings, tuple(notes))
