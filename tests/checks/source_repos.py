"""Tiny source-only repositories for code-authority check unit tests.

`audit_source(tmp_path, {"app.py": source})` writes the files (dedented), audits them and
returns every finding; `found(findings, code)` keeps one code as (file, line) pairs, so a test
asserts where a finding is rather than how many there are.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from topo.audit.model import Finding
from topo.audit.pipeline import AuditRequest, run_audit

__all__ = ["audit_source", "found", "only"]


def audit_source(root: Path, files: dict[str, str]) -> tuple[Finding, ...]:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    result = run_audit(AuditRequest(root=root, jobs=1, cache_dir=None))
    assert result.unknowns == (), result.unknowns
    return result.findings


def found(findings: tuple[Finding, ...], code: str) -> list[tuple[str, int]]:
    """(file, line) of each finding of `code`, in report order."""
    return [(f.location.file, f.location.line) for f in findings if f.code.id == code]


def only(findings: tuple[Finding, ...], code: str) -> Finding:
    """The one finding of `code` (fails when there are none or several)."""
    [finding] = [f for f in findings if f.code.id == code]
    return finding
