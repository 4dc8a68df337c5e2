"""Scopes and name bindings: what a bare name refers to, without guessing.

A name is resolved from the bindings of the scope that owns it (Python's rules: function scopes
see enclosing functions and the module, never a class body). When every binding of the name
agrees, that is the answer. When they disagree, one binding may still govern: in the same scope
the latest binding before the reference, from a nested scope the last binding (nested code runs
after the enclosing body finished) — and only if that binding is unconditional (directly in the
scope's body, not under an `if`, loop or `try`). Otherwise the name is unresolved (None):
`if fast: client = OpenAI() else: client = Anthropic()` names neither.
"""

from __future__ import annotations

import builtins
import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from topo.analyzers.classes import ClassInfo
from topo.analyzers.ir import MODULE_SCOPE
from topo.analyzers.python.spans import Position

__all__ = ["Binding", "ClassInfo", "Scope", "ScopeKind", "binding_scope", "holds_instance",
           "lookup", "sibling_instances"]

_BUILTIN_NAMES = frozenset(name for name in dir(builtins) if not name.startswith("_"))


class ScopeKind(enum.Enum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    COMPREHENSION = "comprehension"   # evaluated inline: transparent for "same scope" lookups


@dataclass(frozen=True, slots=True)
class Binding:
    position: Position
    resolved: str | None       # dotted name the binding refers to, None when not knowable
    top_level: bool            # directly in the scope's body (not under if/loop/try/with)
    # The name holds an instance of `resolved` (a constructor's result, a typed parameter),
    # not the class or function itself: calling it runs `resolved.__call__`.
    instance: bool = False


@dataclass(slots=True)
class Scope:
    qualname: str              # `<module>`, `RefundAgent`, `RefundAgent.handle`
    kind: ScopeKind
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)   # bound by an enclosing function
    class_info: ClassInfo | None = None   # the class itself, or the class owning a method
    self_name: str | None = None          # a method's first parameter (`self`, `cls`)

    def bind(self, name: str, binding: Binding) -> None:
        if name in self.nonlocal_names:
            return
        if name in self.global_names:
            module = self.module()
            module.bindings.setdefault(name, []).append(binding)
        else:
            self.bindings.setdefault(name, []).append(binding)

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def child_qualname(self, name: str) -> str:
        """The qualname of a definition named `name` directly inside this scope."""
        if self.qualname == MODULE_SCOPE:
            return name
        return f"{self.qualname}.{name}"


def binding_scope(scope: Scope, name: str) -> tuple[Scope | None, bool]:
    """The scope that owns `name` as seen from `scope`, and whether it is the same scope
    (comprehensions count as their enclosing scope)."""
    if name in scope.global_names:
        module = scope.module()
        return (module if name in module.bindings else None), scope is module
    current: Scope | None = scope
    same = True
    while current is not None:
        if current.kind is ScopeKind.CLASS and not same:
            current = current.parent
            continue
        if name in current.bindings:
            return current, same
        if current.kind is not ScopeKind.COMPREHENSION:
            same = False
        current = current.parent
    return None, False


def lookup(scope: Scope, name: str, position: Position) -> str | None:
    """The dotted name `name` refers to at `position`, or None when it cannot be known."""
    owner, same = binding_scope(scope, name)
    if owner is None:
        return f"builtins.{name}" if name in _BUILTIN_NAMES else None
    found = _governing(owner.bindings[name], same, position, lambda b: b.resolved)
    return None if found is None else found.resolved


def sibling_instances(scope: Scope, name: str) -> str | None:
    """For a name bound to instances of different classes of one library (`client =
    Anthropic()` or `AnthropicVertex()` or `AnthropicBedrock()`, by provider): the class of the
    first binding, through which the client's methods are named (one SDK's clients share
    their API); None when the bindings are not all such instances."""
    owner, _ = binding_scope(scope, name)
    if owner is None:
        return None
    bindings = owner.bindings[name]
    if not all(binding.instance and binding.resolved for binding in bindings):
        return None
    packages = {str(binding.resolved).split(".", 1)[0] for binding in bindings}
    return bindings[0].resolved if len(packages) == 1 else None


def holds_instance(scope: Scope, name: str, position: Position) -> bool:
    """Whether `name` at `position` holds an instance of what it resolves to (`agent =
    Agent(...)`, `agent: Agent`), by the same rules as `lookup`."""
    owner, same = binding_scope(scope, name)
    if owner is None:
        return False
    found = _governing(owner.bindings[name], same, position,
                       lambda b: (b.resolved, b.instance))
    return found is not None and found.instance


def _governing(bindings: list[Binding], same: bool, position: Position,
               key: Callable[[Binding], object]) -> Binding | None:
    """The binding that decides (see the module docstring): the first when all agree on
    `key`, else the governing unconditional one, else None."""
    first = key(bindings[0])
    if all(key(binding) == first for binding in bindings):
        return bindings[0]
    if same:
        preceding = [binding for binding in bindings if binding.position < position]
        governing = preceding[-1] if preceding else None
    else:
        governing = bindings[-1]
    if governing is None or not governing.top_level:
        return None
    return governing


def module_scope(qualname: str = MODULE_SCOPE) -> Scope:
    return Scope(qualname, ScopeKind.MODULE, None)
