"""Typed values of the policy layer: EMUs as read from JSONL, load errors, config and report.

Dicts appear only in `Emu.raw` and the action/policy payloads, because those are the JSON the
user wrote and the schema is what gives them shape; everything the lints conclude is typed.
Each EMU carries its trigger parsed once, at load: every later stage reads `Emu.parsed`,
`Emu.ast` and `Emu.dependencies` instead of parsing the text again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from topo.analyzers.model import Location
from topo.audit.dsl import Dependency, ParseResult, dependencies, parse_trigger
from topo.audit.dsl.ast import Expr
from topo.audit.model import Finding

__all__ = ["Emu", "EmuSet", "LoadError", "PolicyConfig", "PolicyReport", "DEFAULT_RETENTION_DAYS"]

# Seed 000, "Events and traces": events are "retained for 90 days by default".
DEFAULT_RETENTION_DAYS = 90


@dataclass(frozen=True, slots=True)
class Emu:
    """One EMU object, as one JSONL line held it.

    The typed fields are views of `raw` that tolerate a wrong type (the schema reports it):
    `emu_key` is "" and `trigger` is None when they are not strings; `action` and `policy` are
    empty dicts when they are not objects. `decision_point` is None both when omitted and when
    explicitly null; `raw` keeps the difference ("omission preserves the binding").
    `parsed` is the trigger's parse result (None when `trigger` is None) and `dependencies`
    what a trigger that parses reads (empty otherwise).
    """

    emu_key: str
    decision_point: str | None
    trigger: str | None
    action: dict[str, Any]
    policy: dict[str, Any]
    state: str | None
    raw: dict[str, Any] = field(repr=False)
    location: Location
    parsed: ParseResult | None = field(default=None, repr=False)
    dependencies: tuple[Dependency, ...] = field(default=(), repr=False)

    @classmethod
    def from_object(cls, raw: dict[str, Any], location: Location, *,
                    parse: Callable[[str], ParseResult] = parse_trigger) -> Emu:
        """View a parsed JSON object as an EMU without judging it (that is the schema's job),
        parsing its trigger with `parse` (the loader shares one memo across a directory)."""
        trigger = _text(raw.get("trigger"))
        parsed = parse(trigger) if trigger is not None else None
        return cls(
            emu_key=_text(raw.get("emu_key")) or "",
            decision_point=_text(raw.get("decision_point")),
            trigger=trigger,
            action=_mapping(raw.get("action")),
            policy=_mapping(raw.get("policy")),
            state=_text(raw.get("state")),
            raw=raw,
            location=location,
            parsed=parsed,
            dependencies=dependencies(parsed.ast) if parsed is not None and parsed.ok else (),
        )

    @property
    def ast(self) -> Expr | None:
        """The trigger's AST, or None when there is no trigger string or it does not parse."""
        return self.parsed.ast if self.parsed is not None and self.parsed.ok else None

    @property
    def label(self) -> str:
        """The EMU key, or a stand-in naming the line when the key is missing."""
        return self.emu_key or f"<no emu_key at {self.location.file}:{self.location.line}>"


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True, slots=True)
class LoadError:
    """A problem that stopped an object (or a file, or the directory) from being read.

    Line 0 means the file or directory as a whole: there is no line to point at.
    """

    location: Location
    message: str

    def __str__(self) -> str:
        if self.location.line:
            return f"{self.location.file}:{self.location.line}: {self.message}"
        return f"{self.location.file}: {self.message}"


@dataclass(frozen=True, slots=True)
class EmuSet:
    """Everything one directory yielded: EMUs in file/line order, errors, the files read."""

    emus: tuple[Emu, ...]
    errors: tuple[LoadError, ...]
    files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PolicyConfig:
    """Knobs of the lints. `retention_days` is the organisation's event retention (seed 000:
    "90 days by default; check the organization's configured retention")."""

    retention_days: int = DEFAULT_RETENTION_DAYS

    def __post_init__(self) -> None:
        if self.retention_days < 1:
            raise ValueError(f"retention_days must be at least 1, not {self.retention_days}")


@dataclass(frozen=True, slots=True)
class PolicyReport:
    """The result of validating one directory. Findings are sorted by file, line, code."""

    emus: tuple[Emu, ...]
    findings: tuple[Finding, ...]
    errors: tuple[LoadError, ...]
