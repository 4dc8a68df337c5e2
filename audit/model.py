"""The shared vocabulary of every stage: locations, severities, codes and findings.

This module imports nothing from the project, so that every other module may import it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = ["AttrValue", "Category", "Code", "Edge", "EdgeKind", "Finding", "Location", "ROLE_KINDS",
           "Severity", "Site", "SiteKind", "Suppression", "SuppressionKind", "Tier", "Unknown"]


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A place in an audited file.

    `file` is relative to the audited root with `/` separators; lines are 1-based; columns are
    1-based and counted in characters; the end is exclusive. Front-ends convert their native
    positions into this once, at their boundary.
    """

    file: str
    line: int
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


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

    @property
    def sort_key(self) -> tuple:
        return (-self.severity.rank, self.location.file, self.location.line,
                self.location.column, self.code.id, self.emu_key or "", self.message)


@dataclass(frozen=True, slots=True)
class Unknown:
    """Something the audit could not read or decide: it is reported, never silently dropped."""

    file: str
    reason: str
    line: int | None = None


class EdgeKind(enum.Enum):
    """The five topology roles of seed 000, plus the structural relations beside them."""

    OBSERVATION = "observation"
    INFERENCE = "inference"
    AUTHORITY = "authority"
    EXECUTION = "execution"
    RECORDING = "recording"
    CALLS = "calls"
    BINDS = "binds"
    EMITS = "emits"
    CONSUMES = "consumes"
    REGISTERS = "registers"
    CONTAINS = "contains"      # a function contains a site


ROLE_KINDS = (EdgeKind.OBSERVATION, EdgeKind.INFERENCE, EdgeKind.AUTHORITY, EdgeKind.EXECUTION,
              EdgeKind.RECORDING)


class SiteKind(enum.Enum):
    """What a classified place in the code is (ARCHITECTURE.md, JSON document `sites[].kind`)."""

    DECISION_CALL = "decision_call"
    ATOM = "atom"
    EVENT_EMIT = "event_emit"
    ACK = "ack"
    TOOL_REGISTRATION = "tool_registration"
    ACTION_HANDLER = "action_handler"
    INFERENCE = "inference"
    THRESHOLD = "threshold"
    MODEL_BRANCH = "model_branch"
    APPROVAL_GATE = "approval_gate"
    CONFIG_GATE = "config_gate"
    EXECUTOR = "executor"
    DISPATCHER = "dispatcher"
    FALLBACK = "fallback"
    PROMPT_POLICY = "prompt_policy"
    MEMORY_READ = "memory_read"
    MEMORY_WRITE = "memory_write"
    VALIDATION = "validation"      # a model-derived value checked against a fixed set (zod enum)


class Tier(enum.Enum):
    """Consequence tier of an executor; it adjusts finding severity (findings.md)."""

    MONEY = "money"
    DELETION = "deletion"
    ACCESS = "access"
    COMMUNICATION = "communication"
    DATA_WRITE = "data_write"
    CODE_EXECUTION = "code_execution"
    WORKFLOW = "workflow"
    NONE = "none"


AttrValue = str | int | float | bool | None | tuple


@dataclass(frozen=True, slots=True)
class Site:
    """A classified fact: a call, definition or branch that plays a role in the topology.

    `attrs` holds typed scalar attributes from the rule pack (decision point, atom key, tier…)
    as sorted (name, value) pairs, so a Site stays hashable and deterministic.
    `inferred` is True when the classification rests on a heuristic rather than an exact API
    match.
    """

    id: str
    kind: SiteKind
    system: str
    language: str
    location: Location
    symbol: str
    attrs: tuple[tuple[str, AttrValue], ...] = ()
    inferred: bool = False

    def attr(self, name: str, default: AttrValue = None) -> AttrValue:
        for key, value in self.attrs:
            if key == name:
                return value
        return default


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    kind: EdgeKind
    attrs: tuple[tuple[str, AttrValue], ...] = ()
