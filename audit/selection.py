"""Which finding codes a run reports: `select`, `ignore` and `per-file-ignores`, as in Ruff.

A selector is a code (`UNGOVERNED-PATH`), a prefix of whole hyphen-separated words (`EMU`
or `EMU-` selects `EMU-SCHEMA` and `EMU-TRIGGER-SYNTAX`; `EMU-SCH` selects nothing and is an
error), or `ALL`. A selector that names no code is an error with a "did you mean": a misspelt
`ignore` silently ignored would weaken a gate, and a misspelt `select` would empty it.

Semantics: a finding is reported when its code is selected (no `select`: every code), is not
ignored, and no `per-file-ignores` pattern matching its primary file names its code. A finding
left out is dropped before the reports and the gate: it is in no output (text, JSON, SARIF) and
counts for nothing. It is applied after `# topo: ignore[...]` directives are matched, so a
directive for an ignored code is not reported as SUPPRESSION-UNUSED.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.discovery._globs import GlobSet, PatternError
from topo.audit import codes
from topo.audit.model import Finding

__all__ = ["CodeSelection", "SelectorError", "ALL_CODES", "parse_selectors",
           "per_file_table"]

ALL_CODES = "ALL"


class SelectorError(ValueError):
    """A selector that names no code, or a `per-file-ignores` pattern that cannot be read."""


def _prefixes() -> tuple[str, ...]:
    """Every valid selector: the codes, their whole-word prefixes, and ALL."""
    names = {ALL_CODES}
    for code in codes.ALL:
        words = code.id.split("-")
        names.update("-".join(words[:n]) for n in range(1, len(words) + 1))
    return tuple(sorted(names))


_SELECTORS = frozenset(_prefixes())


def parse_selectors(values: Iterable[str], where: str) -> tuple[str, ...]:
    """Selectors normalised (upper case, no trailing `-`), each checked to name a code."""
    parsed: list[str] = []
    for value in values:
        selector = value.strip().upper().rstrip("-")
        if selector not in _SELECTORS:
            close = difflib.get_close_matches(selector, sorted(_SELECTORS), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise SelectorError(f"{where}: unknown code or prefix {value.strip()!r}{hint}; "
                                "`topo explain --list` lists the codes")
        parsed.append(selector)
    return tuple(dict.fromkeys(parsed))


def _matches(selectors: tuple[str, ...], code_id: str) -> bool:
    return any(s == ALL_CODES or code_id == s or code_id.startswith(s + "-")
               for s in selectors)


def per_file_table(table: dict, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`per-file-ignores` (glob → selectors) checked: each glob compiles, each selector names
    a code."""
    rows: list[tuple[str, tuple[str, ...]]] = []
    for pattern, selectors in table.items():
        if not pattern.strip():
            raise SelectorError(f"{where}: an empty pattern")
        if not isinstance(selectors, list) or not all(isinstance(s, str) for s in selectors):
            raise SelectorError(f"{where} {pattern!r}: expected a list of codes, "
                                f"got {selectors!r}")
        try:
            GlobSet((pattern,))
        except PatternError as error:
            raise SelectorError(f"{where} {pattern!r}: {error}") from None
        rows.append((pattern, parse_selectors(selectors, f"{where} {pattern!r}")))
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class CodeSelection:
    """The codes a run reports. The default reports every code."""

    select: tuple[str, ...] = (ALL_CODES,)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (glob, selectors)

    def apply(self, findings: Iterable[Finding]) -> tuple[Finding, ...]:
        """The findings this selection reports, in their order."""
        per_file = tuple((GlobSet((pattern,)), selectors)
                         for pattern, selectors in self.per_file_ignores)
        return tuple(f for f in findings if self._keeps(f, per_file))

    def runs(self, code_id: str) -> bool:
        """Whether the code is reported anywhere (per-file ignores aside)."""
        return _matches(self.select, code_id) and not _matches(self.ignore, code_id)

    def _keeps(self, finding: Finding, per_file: tuple[tuple[GlobSet, tuple[str, ...]], ...]
               ) -> bool:
        code_id = finding.code.id
        if not _matches(self.select, code_id) or _matches(self.ignore, code_id):
            return False
        file = finding.location.file
        return not any(_matches(selectors, code_id) and globs.excludes(file)
                       for globs, selectors in per_file)
