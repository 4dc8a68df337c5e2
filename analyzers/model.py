"""The shared vocabulary of every stage: where a fact is, what it is, how facts relate.

Locations, unknowns, classified sites and their kinds, edges and consequence tiers. This module
imports nothing from the project, so every floor (analyzers, audit, reports, the CLI) may
import it; findings, codes and severities are built on top of it in `topo.audit.model`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["AttrValue", "Edge", "EdgeKind", "Location", "ROLE_KINDS", "Site", "SiteKind", "Tier",
           "Unknown"]


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
