"""What a lint is: a function from one EMU (with its parsed trigger) to issues, and its code.

A lint never builds a `Finding` itself: it yields `Issue`s (a message and the JSON path it is
about) and the runner attaches the lint's declared code, location and key. A lint therefore
cannot emit a code it did not declare, and every finding of the policy layer has the same shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from topo.audit.model import Code, Severity
from topo.audit.policy.model import Emu, PolicyConfig
from topo.audit.policy.paths import JsonPath
from topo.audit.policy.trigger_facts import TriggerFacts

__all__ = ["Issue", "Lint", "LintContext"]


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem a lint found. `severity` None means the code's default severity."""

    message: str
    path: JsonPath = ()
    severity: Severity | None = None


@dataclass(frozen=True, slots=True)
class LintContext:
    """Everything a lint may read. `trigger` is None when the trigger is missing or not a
    string (the schema reports that); `trigger.ast` is None when it does not parse."""

    emu: Emu
    config: PolicyConfig
    trigger: TriggerFacts | None


@dataclass(frozen=True, slots=True)
class Lint:
    """A row of the lint table.

    `reads` are the JSON paths (dotted) the lint looks at. When the schema already rejected one
    of them, or something inside or around one of them, the lint does not run: the schema
    finding describes that defect, and a second finding about the same place would repeat it.
    """

    name: str
    code: Code
    reads: tuple[str, ...]
    check: Callable[[LintContext], Iterable[Issue]]
