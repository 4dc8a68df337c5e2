"""The reachability matrix of seed 000's deliverable: per EMU, can it match and can it act.

Columns (seed 000, "Audit an application's decision topology"): the decision point, the
required context, whether the trigger is reachable (`yes` / `partial` / `no` / `unknown`),
whether the action is connected, whether the project is coherent. The verdicts are read off
the findings of the policy and topology checks, so the matrix and the findings never disagree:
a finding of an unreachable code, or one marked `unmatchable` (an ATOM-GAP that every caller
of the point shares, a required event that nothing emits), makes the trigger `no`; `why` holds
the messages of the findings behind a verdict other than `yes`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["ReachabilityRow", "reachability_matrix", "UNREACHABLE_CODES", "PARTIAL_CODES"]

# A finding of these codes on an EMU means its trigger cannot match as deployed...
UNREACHABLE_CODES = frozenset({"UNSATISFIABLE-TRIGGER", "INVOKE-GAP", "EMU-TRIGGER-SYNTAX"})
# ...and of these, that it can match only on some paths or only by accident.
PARTIAL_CODES = frozenset({"ATOM-GAP", "GHOST-EVENT", "EVENT-NAME-DRIFT", "EVENT-SCOPE",
                           "ABSENCE-PERMITS", "BINDING-MISMATCH"})


@dataclass(frozen=True, slots=True)
class ReachabilityRow:
    emu_key: str
    decision_point: str | None
    required_context: tuple[str, ...]
    trigger_reachable: str
    action_connected: str
    project_coherent: str
    reasons: tuple[str, ...]       # the finding codes behind a verdict other than yes
    why: tuple[str, ...] = ()      # those findings' messages, sorted


def reachability_matrix(emus: Iterable[Emu], findings: Iterable[Finding],
                        partial: frozenset[str] = frozenset()) -> tuple[ReachabilityRow, ...]:
    """`partial`: keys of EMUs whose action has handlers that cannot complete it (the action
    connectivity's `partially_connected`): action connected `partial`, not `no`."""
    by_emu: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.emu_key:
            by_emu[finding.emu_key].append(finding)
    shown = UNREACHABLE_CODES | PARTIAL_CODES | {"ACTION-GAP", "COHERENCE-GAP"}
    rows = []
    for emu in sorted(emus, key=lambda e: (e.emu_key or "", e.location.file, e.location.line)):
        found = by_emu.get(emu.emu_key or "", [])
        codes = {f.code.id for f in found}
        context = _required_context(emu)
        if context is None or "EMU-TRIGGER-SYNTAX" in codes:
            reachable = "unknown" if context is None else "no"
        elif codes & UNREACHABLE_CODES or any(f.unmatchable for f in found):
            reachable = "no"
        elif codes & PARTIAL_CODES:
            reachable = "partial"
        else:
            reachable = "yes"
        rows.append(ReachabilityRow(
            emu_key=emu.emu_key or "", decision_point=emu.decision_point,
            required_context=context or (), trigger_reachable=reachable,
            action_connected=("partial" if emu.emu_key in partial else "no")
            if "ACTION-GAP" in codes else "yes",
            project_coherent="no" if "COHERENCE-GAP" in codes else "yes",
            reasons=tuple(sorted(codes & shown)),
            why=tuple(sorted({f.message for f in found if f.code.id in shown}))))
    return tuple(rows)


def _required_context(emu: Emu) -> tuple[str, ...] | None:
    if emu.ast is None:
        return None
    accessors = [f"{d.kind}.{d.project + '.' if d.project else ''}{d.key}"
                 for d in emu.dependencies]
    return tuple(dict.fromkeys(accessors))
