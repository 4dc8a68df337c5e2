"""Marking suppressed findings and reporting invalid and unused directives."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.ir import MODULE_SCOPE, FileIR
from topo.audit import codes
from topo.analyzers.model import Location
from topo.audit.model import Category, Finding, Suppression, SuppressionKind
from topo.audit.suppressions._anchors import covers, statement_of, statement_spans
from topo.audit.suppressions._directives import Directive, DirectiveProblem, read_directives

__all__ = ["apply_suppressions"]


@dataclass(frozen=True, slots=True)
class _FileDirectives:
    file: FileIR
    directives: tuple[Directive, ...]
    spans: tuple[Location, ...]


def apply_suppressions(findings: Iterable[Finding], files: Iterable[FileIR], *,
                       ignore: bool = False) -> tuple[Finding, ...]:
    """The findings with covered ones marked suppressed (none when `ignore`), plus a finding
    for every invalid and every unused directive. Order is not kept: callers sort."""
    by_file: dict[str, _FileDirectives] = {}
    problems: list[tuple[FileIR, DirectiveProblem]] = []
    for file in files:
        valid, invalid = read_directives(file)
        problems.extend((file, problem) for problem in invalid)
        if valid:
            by_file[file.path] = _FileDirectives(file, tuple(valid), statement_spans(file))
    used: set[tuple[Location, str]] = set()
    result = [_suppressed(finding, by_file, used, ignore) for finding in findings]
    result.extend(_invalid(file, problem) for file, problem in problems)
    result.extend(f for entry in by_file.values() for f in _unused(entry, used))
    return tuple(result)


def _suppressed(finding: Finding, by_file: Mapping[str, _FileDirectives],
                used: set[tuple[Location, str]], ignore: bool) -> Finding:
    entry = by_file.get(finding.location.file)
    if entry is None or finding.code.category is Category.SUPPRESSION:
        return finding
    statement = statement_of(finding.location, entry.spans)
    covering = [d for d in entry.directives
                if finding.code.id in d.codes and covers(d.location, statement, entry.spans)]
    for directive in covering:
        used.add((directive.location, finding.code.id))
    if ignore or not covering:
        return finding
    first = covering[0]
    return replace(finding, suppression=Suppression(SuppressionKind.IN_SOURCE,
                                                    first.justification, first.location))


def _invalid(file: FileIR, problem: DirectiveProblem) -> Finding:
    return Finding(
        codes.SUPPRESSION_INVALID, codes.SUPPRESSION_INVALID.default_severity,
        f"suppression comment `{problem.text}` {problem.reason}, so it suppresses nothing",
        problem.location, symbol=_symbol(file, problem.location), snippet=problem.text)


def _unused(entry: _FileDirectives, used: set[tuple[Location, str]]) -> list[Finding]:
    """One finding per directive that names a code it covers no finding of."""
    found = []
    for directive in entry.directives:
        unused = [code for code in directive.codes if (directive.location, code) not in used]
        if unused:
            found.append(Finding(
                codes.SUPPRESSION_UNUSED, codes.SUPPRESSION_UNUSED.default_severity,
                f"suppression comment `{directive.text}` covers no {', '.join(unused)} "
                "finding on its statement",
                directive.location, symbol=_symbol(entry.file, directive.location),
                snippet=directive.text))
    return found


def _symbol(file: FileIR, location: Location) -> str:
    """The definition enclosing a comment, named as checks name symbols (`module.Class.f`)."""
    enclosing = [d for d in file.definitions
                 if d.location.line <= location.line <= (d.location.end_line or d.location.line)]
    if not enclosing:
        return function_key(file, MODULE_SCOPE)
    innermost = max(enclosing, key=lambda d: (d.location.line, d.location.column))
    return function_key(file, innermost.qualname)
