"""Scopes and name bindings of TypeScript/JavaScript: what a bare name refers to, unguessed.

Scopes are functions (arrow functions, methods, object-literal methods) and the module; a
block's `let`/`const` are counted in the enclosing function, marked as not top-level, so the
rule of the Python front-end carries over: when the bindings of a name disagree, the latest
binding before the reference governs (from a nested function, the last one), and only if it is
unconditional; otherwise the name is unresolved. A class body binds nothing visible to its
methods: they reach members through `this`. A name bound nowhere is a JavaScript global
(`fetch` → `globalThis.fetch`) when it is one, else unresolved.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from topo.analyzers.classes import ClassInfo
from topo.analyzers.ir import MODULE_SCOPE

__all__ = ["Binding", "ClassInfo", "Scope", "ScopeKind", "lookup", "GLOBAL_PREFIX"]

GLOBAL_PREFIX = "globalThis"

# Globals of browsers and Node that application code calls (the rest stay unresolved).
_GLOBALS = frozenset({
    "fetch", "console", "JSON", "Math", "Date", "Promise", "Object", "Array", "String",
    "Number", "Boolean", "Symbol", "Error", "TypeError", "RangeError", "Map", "Set", "WeakMap",
    "WeakSet", "RegExp", "BigInt", "parseInt", "parseFloat", "isNaN", "isFinite", "eval",
    "Function", "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI",
    "setTimeout", "setInterval", "clearTimeout", "clearInterval", "setImmediate",
    "queueMicrotask", "structuredClone", "atob", "btoa", "URL", "URLSearchParams", "Request",
    "Response", "Headers", "FormData", "Blob", "AbortController", "TextEncoder", "TextDecoder",
    "crypto", "process", "Buffer", "globalThis", "window", "document", "navigator",
    "localStorage", "sessionStorage", "WebSocket", "EventSource", "Intl", "Reflect", "Proxy",
})


class ScopeKind(enum.Enum):
    MODULE = "module"
    FUNCTION = "function"


@dataclass(frozen=True, slots=True)
class Binding:
    """One binding of a name. `namespace` marks a whole module (`import * as m`,
    `const m = require('m')`): calling or constructing it builds the module's default export.
    `external` marks a package import: methods on the results of its calls are named through
    the call (`z.enum([…]).parse` is `zod.z.enum.parse`, as pack factories name them)."""

    position: int              # byte offset from which the binding holds (hoisted: 0)
    resolved: str | None       # dotted name the binding refers to, None when not knowable
    top_level: bool            # directly in the function's body, not under if/loop/try/block
    namespace: bool = False
    external: bool = False     # names something outside the repository (a package, a global)


@dataclass(slots=True)
class Scope:
    qualname: str              # `<module>`, `RefundAgent.handle`, `POST.sendEmail.execute`
    kind: ScopeKind
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    class_info: ClassInfo | None = None   # the class whose `this` this scope sees

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)

    def child_qualname(self, name: str) -> str:
        if self.qualname == MODULE_SCOPE:
            return name
        return f"{self.qualname}.{name}"


def governing(scope: Scope, name: str, position: int) -> Binding | None:
    """The binding `name` refers to at byte `position`, or None when it cannot be known."""
    current: Scope | None = scope
    same = True
    while current is not None and name not in current.bindings:
        current = current.parent
        same = False
    if current is None:
        return None
    bindings = current.bindings[name]
    first = bindings[0]
    if all(b.resolved == first.resolved and b.namespace == first.namespace for b in bindings):
        return first
    if same:
        preceding = [binding for binding in bindings if binding.position <= position]
        chosen = preceding[-1] if preceding else None
    else:
        chosen = bindings[-1]
    if chosen is None or not chosen.top_level:
        return None
    return chosen


def lookup(scope: Scope, name: str, position: int) -> str | None:
    """The dotted name `name` refers to at `position` (a global when bound nowhere)."""
    current: Scope | None = scope
    while current is not None:
        if name in current.bindings:
            found = governing(scope, name, position)
            return None if found is None else found.resolved
        current = current.parent
    return f"{GLOBAL_PREFIX}.{name}" if name in _GLOBALS else None
