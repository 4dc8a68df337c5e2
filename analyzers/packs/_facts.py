"""Per-file lookups the extraction needs: calls by id, definitions by qualname, and the ATOM
sites already found (decision and event sites refer to atom calls by id)."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzers.ir import MODULE_SCOPE, Assignment, Call, Definition, FileIR
from audit.model import Site

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
