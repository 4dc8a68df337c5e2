"""Running the schema and the lint table over EMUs, and turning issues into findings.

The schema runs first. A lint whose `reads` overlap a path the schema rejected is skipped, so
one defect yields one finding (the schema's sentence names it best: a cooldown written 'PT1H'
is an EMU-SCHEMA finding, not also a POLICY-GAP "no cooldown").
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.audit import codes
from topo.audit.model import Code, Finding
from topo.audit.policy.lints import LINTS, Issue, Lint, LintContext
from topo.audit.policy.model import Emu, PolicyConfig
from topo.audit.policy.paths import JsonPath, dotted, overlaps, parse
from topo.audit.policy.schema import EmuSchema
from topo.audit.policy.trigger_facts import trigger_facts

__all__ = ["lint_emu", "lint_emus", "finding_order"]


def lint_emus(emus: Iterable[Emu], config: PolicyConfig = PolicyConfig(), *,
              lints: tuple[Lint, ...] = LINTS) -> tuple[Finding, ...]:
    """Findings for every EMU, in report order (file, line, code, message)."""
    schema = EmuSchema()
    findings = [f for emu in emus for f in lint_emu(emu, config, schema=schema, lints=lints)]
    return tuple(sorted(findings, key=finding_order))


def lint_emu(emu: Emu, config: PolicyConfig = PolicyConfig(), *,
             schema: EmuSchema | None = None,
             lints: tuple[Lint, ...] = LINTS) -> tuple[Finding, ...]:
    """Findings for one EMU: its schema violations, then every lint whose input is sound.
    `schema` is the run's `EmuSchema` (one is built when none is given)."""
    violations = (schema or EmuSchema()).violations(emu.raw)
    rejected = [v.path for v in violations]
    findings = [_finding(emu, codes.EMU_SCHEMA, Issue(v.message, v.path)) for v in violations]
    trigger_ok = emu.trigger is not None and not _touches(("trigger",), rejected)
    context = LintContext(emu, config, trigger_facts(emu) if trigger_ok else None)
    for lint in lints:
        if any(_touches(parse(read), rejected) for read in lint.reads):
            continue
        findings.extend(_finding(emu, lint.code, issue) for issue in lint.check(context))
    return tuple(sorted(_unique(findings), key=finding_order))


def finding_order(finding: Finding) -> tuple:
    """File, line, then code and message: findings read in the order of the file."""
    return (finding.location.file, finding.location.line, finding.code.id, finding.message)


def _touches(read: JsonPath, rejected: list[JsonPath]) -> bool:
    return any(overlaps(read, path) for path in rejected)


def _finding(emu: Emu, code: Code, issue: Issue) -> Finding:
    # The JSON path stands in for a code snippet: it tells two findings of one code on one EMU
    # apart and does not move when lines do, which is what fingerprints need.
    return Finding(code=code, severity=issue.severity or code.default_severity,
                   message=issue.message, location=emu.location, symbol=emu.label,
                   emu_key=emu.emu_key or None, snippet=dotted(issue.path))


def _unique(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str]] = set()
    out = []
    for finding in findings:
        if (finding.code.id, finding.message) not in seen:
            seen.add((finding.code.id, finding.message))
            out.append(finding)
    return out


