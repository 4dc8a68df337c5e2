"""The cross-file call graph: which repo function each call reaches.

Front-ends resolve callees to dotted names per file (`app.helpers.compute`,
`app.agent.Agent.run`); this module joins those names to the definitions of every file. A name
that is not defined where it points may be re-exported (`from app.helpers import compute` in
`app/__init__.py`), so imports of repo modules are followed, a bounded number of hops. Calling a
class reaches its `__init__`. A call whose callee is unknown, or names a library, is recorded as
unresolved: never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from topo.analyzers.ir import MODULE_SCOPE, Call, Definition, DefinitionKind, FileIR

__all__ = ["CallGraph", "CallEdge", "FunctionKey", "build_call_graph", "function_key",
           "callers_of", "callees_of", "reexport_table", "follow_reexport"]

_MAX_REEXPORT_HOPS = 8
_CONSTRUCTORS = ("__init__", "constructor")

FunctionKey = str
"""`<module>.<qualname>` of a definition, or `<module>.<module>` for module-level code."""


def function_key(file: FileIR, scope: str) -> FunctionKey:
    """The key of the function (or module body) that a scope of `file` belongs to."""
    return f"{file.module}.{scope}"


@dataclass(frozen=True, slots=True)
class CallEdge:
    caller: FunctionKey
    callee: FunctionKey
    call: str                  # the Call id making the call


@dataclass(frozen=True, slots=True)
class CallGraph:
    """Definitions by key, resolved call edges, and the calls left unresolved (by id)."""

    definitions: Mapping[FunctionKey, tuple[FileIR, Definition]]
    edges: tuple[CallEdge, ...]
    resolved: Mapping[str, FunctionKey]        # call id -> the function it reaches
    unresolved: tuple[str, ...]

    def target(self, call: Call) -> FunctionKey | None:
        """The repo function a call reaches, or None."""
        return self.resolved.get(call.id)


def build_call_graph(files: Iterable[FileIR]) -> CallGraph:
    """Join per-file resolved callee names to the definitions of all files."""
    files = tuple(files)
    definitions = {function_key(f, d.qualname): (f, d) for f in files for d in f.definitions}
    reexports = reexport_table(files)
    modules = {f.module for f in files}
    edges: list[CallEdge] = []
    resolved: dict[str, FunctionKey] = {}
    unresolved: list[str] = []
    targets: dict[str | None, FunctionKey | None] = {}   # by callee: many calls name one
    for file in files:
        for call in file.calls:
            if call.callee not in targets:
                targets[call.callee] = _resolve(call.callee, definitions, reexports, modules)
            target = targets[call.callee]
            if target is None:
                unresolved.append(call.id)
                continue
            resolved[call.id] = target
            edges.append(CallEdge(function_key(file, call.scope), target, call.id))
    edges.sort(key=lambda e: (e.caller, e.callee, e.call))
    return CallGraph(definitions, tuple(edges), resolved, tuple(sorted(unresolved)))


def callers_of(graph: CallGraph, function: FunctionKey) -> Iterator[CallEdge]:
    """Edges into `function`, e.g. `[e.caller for e in callers_of(g, "app.tools.refund")]`."""
    return (edge for edge in graph.edges if edge.callee == function)


def callees_of(graph: CallGraph, function: FunctionKey) -> Iterator[CallEdge]:
    """Edges out of `function`."""
    return (edge for edge in graph.edges if edge.caller == function)


def reexport_table(files: tuple[FileIR, ...]) -> dict[str, str]:
    """`pkg.name` -> `pkg.sub.name` for every module-level `from pkg.sub import name [as x]`."""
    table: dict[str, str] = {}
    for file in files:
        for imported in file.imports:
            if imported.scope != MODULE_SCOPE or imported.name in (None, "*"):
                continue
            table[f"{file.module}.{imported.alias}"] = f"{imported.module}.{imported.name}"
        for export in file.exports:
            if export.source_module is not None:
                table[f"{file.module}.{export.name}"] = \
                    f"{export.source_module}.{export.source_name}"
    return table


def _resolve(name: str | None, definitions: Mapping[FunctionKey, tuple[FileIR, Definition]],
             reexports: Mapping[str, str], modules: set[str]) -> FunctionKey | None:
    for _ in range(_MAX_REEXPORT_HOPS):
        if name is None:
            return None
        found = definitions.get(name)
        if found is not None:
            _, definition = found
            if definition.kind is DefinitionKind.CLASS:
                # Python `__init__`, TypeScript `constructor`.
                return next((f"{name}.{init}" for init in _CONSTRUCTORS
                             if f"{name}.{init}" in definitions), None)
            return name
        name = follow_reexport(name, reexports, modules)
    return None


def follow_reexport(name: str, reexports: Mapping[str, str], modules: set[str]) -> str | None:
    """One re-export hop for `name` or for its longest re-exported prefix (`pkg.Cls.method`).
    A name inside a repo module stays in it: `pkg.tool.tool` is the function of module
    `pkg/tool.py` even when `pkg/__init__.py` re-exports it as `pkg.tool`."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in modules and cut < len(parts):
            return None
        if prefix in reexports:
            return ".".join([reexports[prefix], *parts[cut:]])
        if prefix in modules:
            return None    # defined nowhere in that repo module, and not re-exported
    return None
