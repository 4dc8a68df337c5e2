"""The facts of one file as they are collected, and the context a construct is read in."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzers.ir import (Assignment, Call, Definition, Export, Guard, GuardedBlock, Import,
                          Return)
from analyzers.typescript.scopes import Scope
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
    exports: list[Export] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    returns: list[Return] = field(default_factory=list)
    blocks: list[GuardedBlock] = field(default_factory=list)
    unknowns: list[Unknown] = field(default_factory=list)
    _ids: set[str] = field(default_factory=set)
    _qualnames: set[str] = field(default_factory=set)

    def call_id(self, location: Location) -> str:
        """`<file>:<line>:<column>` of the call; a call chained on another call starting at the
        same place (`new OpenAI().chat.completions.create()`) gets a `+n` suffix."""
        base = f"{self.path}:{location.line}:{location.column}"
        candidate = base
        counter = 0
        while candidate in self._ids:
            counter += 1
            candidate = f"{base}+{counter}"
        self._ids.add(candidate)
        return candidate

    def qualname(self, wanted: str, location: Location) -> str:
        """`wanted`, or `wanted@line:column` when the file already defines that qualname (two
        `execute` functions under one binding), so that definitions stay unique."""
        name = wanted if wanted not in self._qualnames else \
            f"{wanted}@{location.line}:{location.column}"
        self._qualnames.add(name)
        return name
