"""The facts of one file as they are collected, and the context a construct is read in."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzers.ir import Assignment, Call, Definition, Guard, GuardedBlock, Import, Return
import libcst as cst

from analyzers.python.scopes import Scope
from analyzers.python.spans import SourceText
from audit.model import Location, Unknown

__all__ = ["Context", "Facts"]


@dataclass(frozen=True, slots=True)
class Context:
    """Where a construct is read: its scope, the guards around it (outermost first), the span of
    its enclosing statement, and the lists collecting call ids (try bodies, conditions)."""

    scope: Scope
    guards: tuple[Guard, ...]
    statement: Location
    sinks: tuple[list[str], ...] = ()

    def guarded(self, *guards: Guard) -> Context:
        return Context(self.scope, self.guards + guards, self.statement, self.sinks)

    def at(self, statement: Location) -> Context:
        return Context(self.scope, self.guards, statement, self.sinks)

    def collecting(self, sink: list[str]) -> Context:
        return Context(self.scope, self.guards, self.statement, (*self.sinks, sink))

    def entering(self, scope: Scope) -> Context:
        """A new function body: its facts run when it is called, so no guard carries over."""
        return Context(scope, (), self.statement, ())


@dataclass(slots=True)
class Facts:
    path: str
    imports: list[Import] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    returns: list[Return] = field(default_factory=list)
    blocks: list[GuardedBlock] = field(default_factory=list)
    unknowns: list[Unknown] = field(default_factory=list)
    _ids: set[str] = field(default_factory=set)

    def call_id(self, location: Location) -> str:
        """`<file>:<line>:<column>` of the call; a call chained on another call starting at the
        same place (`OpenAI().chat.create()`) gets a `+n` suffix to stay unique."""
        base = f"{self.path}:{location.line}:{location.column}"
        candidate = base
        counter = 0
        while candidate in self._ids:
            counter += 1
            candidate = f"{base}+{counter}"
        self._ids.add(candidate)
        return candidate

    def unreadable(self, node: cst.CSTNode, what: str, error: Exception,
                   text: SourceText) -> None:
        """Record a construct that raised while being read (production mode only)."""
        line = text.start(node)[0] if id(node) in text.spans else None
        reason = f"{what} {type(node).__name__}: {type(error).__name__}: {error}"
        self.unknowns.append(Unknown(self.path, reason[:300], line))
