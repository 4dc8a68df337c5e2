"""Per-file lookups the extraction needs: calls by id, definitions by qualname, and the ATOM
sites already found (decision and event sites refer to atom calls by id)."""

from __future__ import annotations

from dataclasses import dataclass, field

from topo.analyzers.ir import MODULE_SCOPE, Assignment, Call, Definition, FileIR, ValueKind
from topo.analyzers.model import Site

__all__ = ["FileFacts", "qualified"]


def qualified(module: str, scope: str) -> str:
    """`app.agents` + `RefundAgent.handle` → `app.agents.RefundAgent.handle`; module level is
    the module itself."""
    return module if scope == MODULE_SCOPE else f"{module}.{scope}"


@dataclass(frozen=True)
class FileFacts:
    file: FileIR
    calls: dict[str, Call]
    definitions: dict[str, Definition]
    atoms: dict[str, tuple[Site, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, file: FileIR, atoms: dict[str, tuple[Site, ...]] | None = None) -> FileFacts:
        return cls(file=file, calls={call.id: call for call in file.calls},
                   definitions={d.qualname: d for d in file.definitions}, atoms=atoms or {})

    def with_atoms(self, atoms: dict[str, tuple[Site, ...]]) -> FileFacts:
        return FileFacts(self.file, self.calls, self.definitions, atoms)

    def class_assignment(self, definition: Definition, target: str) -> Assignment | None:
        """`name = "refund"` written directly in the body of a class."""
        for assignment in self.file.assignments:
            if assignment.scope == definition.qualname and assignment.target == target:
                return assignment
        return None

    def local_definition(self, name: str) -> Definition | None:
        """The definition a name written in this file refers to (`refund` or `Tools.refund`),
        or the one named by its fully qualified form."""
        found = self.definitions.get(name)
        if found is None and name.startswith(self.file.module + "."):
            found = self.definitions.get(name[len(self.file.module) + 1:])
        return found

    def instance_origin(self, call: Call) -> Call | None:
        """The call that built the object a method is called on, when it is plain to see:
        `StateObject(p, d).to_atoms()` (the constructor call starting where this one starts)
        or `obj.to_atoms()` after `obj = StateObject(p, d)` in the same scope or at module
        level. Anything subtler is the dataflow's business, not the packs'."""
        owner = call.callee.rsplit(".", 1)[0] if call.callee and "." in call.callee else None
        if owner is None:
            return None
        for other in self.file.calls:
            if (other.id != call.id and other.callee == owner
                    and other.location.line == call.location.line
                    and other.location.column == call.location.column):
                return other
        if not call.receiver or not call.receiver.isidentifier():
            return None
        origin = self.bound_call(call.receiver, call.scope, call.location.line)
        return origin if origin is not None and origin.callee == owner else None

    def bound_call(self, name: str, scope: str, line: int) -> Call | None:
        """The call whose result `name` holds when read at `line` in `scope`: `obj = f(…)` in
        that scope or at module level, written before."""
        candidates = [a for a in self.file.assignments
                      if a.target == name and a.scope in (scope, MODULE_SCOPE)
                      and a.value.kind is ValueKind.CALL and a.location.line <= line]
        if not candidates:
            return None
        # The nearest binding wins: the call's own scope over the module, then the latest.
        latest = max(candidates, key=lambda a: (a.scope == scope, a.location.line))
        return self.calls.get(latest.value.call or "")
