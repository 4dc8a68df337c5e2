"""The facts of one file as a front-end collects them, and the context each construct is read
in. Shared by the Python and TypeScript front-ends, whose only difference here is their scope
type."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from topo.analyzers.ir import (Assignment, Call, Definition, Deletion, Export, Guard,
                               GuardedBlock, Import, Return)
from topo.analyzers.model import Location, Unknown

__all__ = ["Context", "Facts", "read_block"]

ScopeT = TypeVar("ScopeT")


@dataclass(frozen=True, slots=True)
class Context(Generic[ScopeT]):
    """Where a construct is read: its scope, the guards around it (outermost first), the span of
    its enclosing statement, and the lists collecting call ids (try bodies, conditions)."""

    scope: ScopeT
    guards: tuple[Guard, ...]
    statement: Location
    sinks: tuple[list[str], ...] = ()

    def guarded(self, *guards: Guard) -> Context[ScopeT]:
        return Context(self.scope, self.guards + guards, self.statement, self.sinks)

    def at(self, statement: Location) -> Context[ScopeT]:
        return Context(self.scope, self.guards, statement, self.sinks)

    def collecting(self, sink: list[str]) -> Context[ScopeT]:
        return Context(self.scope, self.guards, self.statement, (*self.sinks, sink))

    def entering(self, scope: ScopeT) -> Context[ScopeT]:
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
    deletions: list[Deletion] = field(default_factory=list)
    blocks: list[GuardedBlock] = field(default_factory=list)
    unknowns: list[Unknown] = field(default_factory=list)
    _ids: set[str] = field(default_factory=set)
    _qualnames: set[str] = field(default_factory=set)

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

    def qualname(self, wanted: str, location: Location) -> str:
        """`wanted`, or `wanted@line:column` when the file already defines that qualname (two
        `execute` functions under one binding), so that definitions stay unique."""
        name = wanted if wanted not in self._qualnames else \
            f"{wanted}@{location.line}:{location.column}"
        self._qualnames.add(name)
        return name

    def unreadable(self, line: int | None, what: str, construct: str,
                   error: Exception) -> None:
        """Record a construct that raised while being read (production mode only)."""
        reason = f"{what} {construct}: {type(error).__name__}: {error}"
        self.unknowns.append(Unknown(self.path, reason[:300], line))


StatementT = TypeVar("StatementT")


def read_block(statements: Sequence[StatementT], context: Context[ScopeT],
               read: Callable[[StatementT, Context[ScopeT]], tuple[Guard, ...]]) -> None:
    """Read a block's statements in order. `read` returns the guards a statement adds for what
    follows it: an `if … return` makes an EARLY_EXIT guard over the rest of the block."""
    guards = context.guards
    for statement in statements:
        local = context if guards is context.guards else Context(
            context.scope, guards, context.statement, context.sinks)
        exits = read(statement, local)
        if exits:
            guards = guards + exits
