"""The classes of one module as a front-end sees them: what `self.x` / `this.x` means.

Shared by the Python and TypeScript front-ends: a class has methods and typed attributes
(`self.client = OpenAI()`), and inherits both from base classes of the same module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ClassInfo", "member"]

_MAX_BASE_DEPTH = 10


@dataclass(slots=True)
class ClassInfo:
    """What `self.x` (`this.x`) means inside a class: its methods and its typed attributes."""

    resolved: str                                   # `app.agents.RefundAgent`
    methods: set[str] = field(default_factory=set)
    attributes: dict[str, str | None] = field(default_factory=dict)
    bases: tuple[str, ...] = ()

    def set_attribute(self, name: str, resolved: str | None) -> None:
        """Record `self.name = …`; two different values make the attribute unresolved."""
        if name in self.attributes and self.attributes[name] != resolved:
            self.attributes[name] = None
        else:
            self.attributes[name] = resolved


def member(classes: Mapping[str, ClassInfo], info: ClassInfo, attribute: str) -> str | None:
    """What `self.attribute` resolves to in `info`'s methods: a typed attribute, or a method
    (`<class>.<method>`), also inherited from classes of the same module; else None."""
    seen: set[str] = set()
    pending = [info]
    while pending and len(seen) < _MAX_BASE_DEPTH:
        current = pending.pop(0)
        if current.resolved in seen:
            continue
        seen.add(current.resolved)
        if attribute in current.attributes:
            return current.attributes[attribute]
        if attribute in current.methods:
            return f"{current.resolved}.{attribute}"
        pending.extend(classes[base] for base in current.bases if base in classes)
    return None
