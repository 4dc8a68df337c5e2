"""What one decision call supplies: the atoms that reach its context, and what we cannot see.

ATOM-GAP may only say "never built" when the whole context is traceable. The atoms come from
the observation edges (label propagation from atom builders to `context=`); traceability is a
separate walk over the IR of the value passed as context: list literals, local variables and
what is appended to them, module constants, repo functions' returns and their callers'
arguments are followed; anything else — a helper from another package, an attribute of a
request object, `atoms_from_dict` over a non-literal dict, `base + [tag(…)]` — makes it opaque,
and the walk says why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import callers_of, function_key
from topo.analyzers.flow.dataflow import MUTATING_METHODS
from topo.analyzers.ir import LITERAL_KINDS, MODULE_SCOPE, DefinitionKind, FileIR, Value, ValueKind
from topo.analyzers.paths import root_of
from topo.analyzers.flow.roles import decision_context
from topo.audit.checks._registry import CheckContext
from topo.analyzers.model import EdgeKind, Site, SiteKind

__all__ = ["Supply", "context_supply"]

_MAX_DEPTH = 8
# Library calls that hand back (a copy of) what they are given.
_PASS_THROUGH = frozenset({"list", "tuple", "sorted", "copy", "deepcopy", "to_atoms"})


@dataclass(frozen=True, slots=True)
class Supply:
    """`atoms`: atom sites reaching the call. `open_prefixes`: state prefixes whose keys are
    computed (`""` means any state key). `open_tags`: some tag kind is computed. `opaque`: why
    the context as a whole cannot be traced, or None when it can."""

    atoms: tuple[Site, ...]
    open_prefixes: frozenset[str]
    open_tags: bool
    opaque: str | None

    def is_open(self, kind: str, key: str) -> bool:
        """Could an atom we cannot read be this one?"""
        if self.opaque is not None:
            return True
        if kind == "tag":
            return self.open_tags
        return any(p == "" or key == p or key.startswith(p + ".") for p in self.open_prefixes)


def context_supply(ctx: CheckContext, decision: Site) -> Supply:
    atoms = tuple(ctx.graph.nodes[source]["site"]
                  for source, _, data in sorted(ctx.graph.in_edges(decision.id, data=True),
                                                key=lambda edge: (edge[0], edge[1]))
                  if data.get("kind") == EdgeKind.OBSERVATION.value
                  and ctx.graph.nodes[source].get("site") is not None
                  and ctx.graph.nodes[source]["site"].kind is SiteKind.ATOM)
    computed = [a for a in atoms if a.attr("key_literal") is False or a.attr("key") is None]
    prefixes = frozenset(str(a.attr("prefix") or "") for a in computed
                         if a.attr("kind") == "state")
    found = ctx.calls.get(str(decision.attr("call")))
    if found is None:
        opaque: str | None = "the decision call is not in the IR"
    else:
        file, call = found
        value = decision_context(call)
        if value is None:
            opaque = "keyword arguments passed with `**`" if call.kwarg("**") else None
        else:
            atom_calls = frozenset(str(s.attr("call")) for s in ctx.facts.sites
                                   if s.kind is SiteKind.ATOM)
            opaque = _Walk(ctx, atom_calls).value(file, call.scope, value, 0)
    return Supply(atoms, prefixes, any(a.attr("kind") == "tag" for a in computed), opaque)


class _Walk:
    """One traceability walk; `seen` breaks cycles (a list appended to itself, recursion)."""

    def __init__(self, ctx: CheckContext, atom_calls: frozenset[str]) -> None:
        self.ctx = ctx
        self.atom_calls = atom_calls
        self.seen: set[tuple[str, str, str]] = set()

    def value(self, file: FileIR, scope: str, value: Value, depth: int) -> str | None:
        if depth > _MAX_DEPTH:
            return f"`{value.text}` is too deep to follow"
        match value.kind:
            case kind if kind in LITERAL_KINDS or kind is ValueKind.FORMAT:
                return None
            case ValueKind.LIST | ValueKind.DICT | ValueKind.SPREAD:
                return self.first(file, scope, (v for _, v in value.entries), depth)
            case ValueKind.CALL:
                return self.call(file, scope, value, depth)
            case ValueKind.NAME if value.ref and root_of(value.ref) == value.ref:
                return self.name(file, scope, value.ref, depth)
            case ValueKind.OTHER if "(" not in value.text:
                names = (Value(ValueKind.NAME, read, ref=read) for read in value.reads)
                return self.first(file, scope, names, depth)
        return f"`{value.text}`"

    def first(self, file: FileIR, scope: str, values: Iterator[Value], depth: int) -> str | None:
        return next((r for v in values if (r := self.value(file, scope, v, depth)) is not None),
                    None)

    def call(self, file: FileIR, scope: str, value: Value, depth: int) -> str | None:
        found = self.ctx.calls.get(value.call or "")
        if found is None or found[1].id in self.atom_calls:
            return None if found is not None else f"`{value.text}`"
        call_file, call = found
        target = self.ctx.facts.graph.target(call)
        if target is not None:
            defined_in, definition = self.ctx.facts.graph.definitions[target]
            returned = (r.value for r in defined_in.returns
                        if r.scope == definition.qualname and r.value is not None)
            return self.first(defined_in, definition.qualname, returned, depth + 1)
        if call.name in _PASS_THROUGH:
            inputs = [*call.args, *(v for _, v in call.kwargs)]
            if call.receiver:
                inputs.append(Value(ValueKind.NAME, call.receiver, ref=call.receiver))
            return self.first(call_file, call.scope, iter(inputs), depth)
        return f"`{value.text}`"

    def name(self, file: FileIR, scope: str, name: str, depth: int) -> str | None:
        key = (file.path, scope, name)
        if key in self.seen:
            return None
        self.seen.add(key)
        for candidate in _scope_chain(scope):
            bound = [a.value for a in file.assignments
                     if a.scope == candidate and root_of(a.target) == name]
            if bound:
                added = [v for c in file.calls if c.receiver and root_of(c.receiver) == name
                         and c.name in MUTATING_METHODS and _within(c.scope, candidate)
                         for v in (*c.args, *(v for _, v in c.kwargs))]
                return self.first(file, candidate, iter([*bound, *added]), depth)
            if candidate != MODULE_SCOPE:
                reason = self.parameter(file, candidate, name, depth)
                if reason != "":
                    return reason
        imported = next((i for i in file.imports if i.alias == name), None)
        if imported is not None:
            return f"`{name}` is imported from `{imported.module}`"
        return f"`{name}` is not bound in the code we read"

    def parameter(self, file: FileIR, scope: str, name: str, depth: int) -> str | None:
        """Follow a parameter to every caller's argument; "" when `name` is no parameter."""
        key = function_key(file, scope)
        found = self.ctx.facts.graph.definitions.get(key)
        if found is None:
            return ""
        _, definition = found
        parameters = list(definition.parameters)
        if definition.kind is DefinitionKind.METHOD and parameters and \
                parameters[0].name in ("self", "cls"):
            parameters = parameters[1:]
        names = [p.name for p in parameters]
        if name not in names:
            return ""
        edges = list(callers_of(self.ctx.facts.graph, key))
        if not edges:
            return f"`{name}` is a parameter of `{key}`, which no code in the repository calls"
        for edge in edges:
            caller_file, caller = self.ctx.calls[edge.call]
            argument = caller.kwarg(name)
            index = names.index(name)
            if argument is None and index < len(caller.args):
                argument = caller.args[index]
            if argument is None:
                argument = parameters[index].default
            if argument is not None:
                reason = self.value(caller_file, caller.scope, argument, depth + 1)
                if reason is not None:
                    return reason
        return None


def _scope_chain(scope: str) -> list[str]:
    if scope == MODULE_SCOPE:
        return [MODULE_SCOPE]
    parts = scope.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)] + [MODULE_SCOPE]


def _within(scope: str, outer: str) -> bool:
    return outer == MODULE_SCOPE or scope == outer or scope.startswith(outer + ".")
