"""What the audit says about a repository: severities, finding codes and findings.

Built on the analyzers' vocabulary (`topo.analyzers.model`: locations, sites, edges, tiers).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from topo.analyzers.model import Location

__all__ = ["Category", "Code", "Finding", "Severity", "Suppression", "SuppressionKind"]


class Severity(enum.Enum):
    """Ordered from least to most severe, so that `max()` and comparisons read naturally."""

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _SEVERITY_RANK[self]

    def __lt__(self, other: Severity) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: Severity) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: Severity) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: Severity) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank >= other.rank

    @classmethod
    def parse(cls, text: str) -> Severity:
        """Read a user-supplied severity name (case-insensitive); raise ValueError otherwise."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown severity {text!r} (expected one of: {names})") from None


_SEVERITY_RANK = {Severity.LOW: 0, Severity.MEDIUM: 1, Severity.HIGH: 2, Severity.CRITICAL: 3}


class Category(enum.Enum):
    POLICY = "policy"
    AUTHORITY = "authority"
    DSL = "dsl"
    SUPPRESSION = "suppression"   # problems with `topo: ignore[...]` directives themselves


@dataclass(frozen=True, slots=True)
class Code:
    """A finding code: a stable identifier declared once, in `audit/codes.py`."""

    id: str
    title: str
    default_severity: Severity
    category: Category
    tags: tuple[str, ...] = ()


class SuppressionKind(enum.Enum):
    """Why a finding is hidden from the gate. Values are SARIF's `suppression.kind` names."""

    IN_SOURCE = "inSource"     # a `# topo: ignore[CODE] -- justification` comment
    EXTERNAL = "external"      # a baseline file (`topo check --baseline`)


@dataclass(frozen=True, slots=True)
class Suppression:
    """A suppressed finding stays in the results, marked with this. `location` is the directive
    comment for IN_SOURCE; `justification` is the directive's text after `--`, or names the
    baseline file."""

    kind: SuppressionKind
    justification: str
    location: Location | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem, with the evidence that shows it.

    `message` is one sentence naming the evidence; it holds no remediation, line numbers or
    absolute paths. `symbol` is the dotted chain of the enclosing definition (or the EMU key for
    policy findings). `fingerprint` is filled in by the fingerprinting stage.
    """

    code: Code
    severity: Severity
    message: str
    location: Location
    symbol: str = ""
    emu_key: str | None = None
    snippet: str = ""
    inferred: bool = False
    fingerprint: str = ""
    related: tuple[Location, ...] = field(default=())
    path: tuple[str, ...] = field(default=())   # site ids from proposal to effect
    suppression: Suppression | None = None       # set when a directive or a baseline hides it
    unmatchable: bool = False    # a policy gap that alone keeps its EMU from ever matching

    @property
    def sort_key(self) -> tuple:
        return (-self.severity.rank, self.location.file, self.location.line,
                self.location.column, self.code.id, self.emu_key or "", self.message)
