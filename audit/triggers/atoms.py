"""The atoms a trigger reads, named the way `topo fuzz` reports them, and how to read or replace
one atom in a context.

Names (the `atom` of the `topo-fuzz/1` document): a state key as the context writes it
(`refund.amount_cents`, no `state.` prefix, as in ARCHITECTURE.md's example), a tag kind as
`tag.<kind>`, an event as `event.[<project>.]<subject>.<verb>.<object>`. A state key whose first
segment is `tag` or `event` would read like the other two; the `kind` field keeps them apart
inside topo.

*Absent* covers both a missing key and a null value: the evaluator treats them alike, so the
fuzzer never tells them apart either.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from topo.audit.dsl.deps import operand_refs
from topo.audit.dsl import EvalContext, Event, dependencies
from topo.audit.dsl.ast import Arith, Compare, Exists, Expr, InList, StateRef, StrOp, TagRef, Truthy
from topo.audit.dsl.context import normalize_text

__all__ = ["Atom", "Absent", "ABSENT", "atoms_of", "ref_atom", "refs_of", "value_of", "with_value",
           "events_of", "with_events"]


class Absent(enum.Enum):
    """The value of an atom the context does not supply (missing or null)."""

    ABSENT = "absent"


ABSENT = Absent.ABSENT


@dataclass(frozen=True, slots=True)
class Atom:
    """One input of a trigger: a state key, a tag kind, or an event (name and project)."""

    kind: Literal["state", "tag", "event"]
    key: str
    project: str | None = None

    @property
    def name(self) -> str:
        """As reported: `refund.amount_cents`, `tag.intent`, `event.user.failed.login`."""
        match self.kind:
            case "state":
                return self.key
            case "tag":
                return f"tag.{self.key}"
        project = f"{self.project}." if self.project else ""
        return f"event.{project}{self.key}"

    @property
    def accessor(self) -> str:
        """As a trigger spells it: `state.refund.amount_cents`, `tag.intent`, `event.…`."""
        return f"state.{self.key}" if self.kind == "state" else self.name


def atoms_of(ast: Expr) -> tuple[Atom, ...]:
    """Every distinct atom `ast` reads, in source order; the state keys that WHERE templates
    interpolate (`'{{customer.id}}'`) count as read, right after their event."""
    found: list[Atom] = []
    for dependency in dependencies(ast):
        atom = Atom(dependency.kind, dependency.key,
                    dependency.project if dependency.kind == "event" else None)
        found += [atom, *(Atom("state", key) for key in dependency.templates)]
    return tuple(dict.fromkeys(found))


def ref_atom(ref: StateRef | TagRef) -> Atom:
    """The atom an accessor reads."""
    return Atom("state", ref.key) if isinstance(ref, StateRef) else Atom("tag", ref.kind)


def refs_of(node: object) -> list[StateRef | TagRef]:
    """The state and tag accessors of a value predicate or operand, left to right (events and
    boolean structure read none)."""
    match node:
        case StateRef() | TagRef() | Arith():
            return list(operand_refs(node))
        case Compare(left=left, right=right):
            return [*operand_refs(left), *operand_refs(right)]
        case Exists(ref=ref) | Truthy(ref=ref) | InList(ref=ref) | StrOp(ref=ref):
            return [ref]
    return []


def value_of(ctx: EvalContext, atom: Atom) -> Any:
    """The value a state or tag atom has in `ctx`; ABSENT when missing or null."""
    value = ctx.state.get(atom.key) if atom.kind == "state" else ctx.tag(atom.key)
    return ABSENT if value is None else value


def with_value(ctx: EvalContext, atom: Atom, value: Any) -> EvalContext:
    """`ctx` with a state or tag atom set to `value`, or removed when `value` is ABSENT.

    A tag is looked up normalised, so every kind that normalises like `atom.key` goes first.
    """
    if atom.kind == "state":
        state = {k: v for k, v in ctx.state.items() if k != atom.key}
        if value is not ABSENT:
            state[atom.key] = value
        return replace(ctx, state=state)
    wanted = normalize_text(atom.key)
    tags = {k: v for k, v in ctx.tags.items() if normalize_text(k) != wanted}
    if value is not ABSENT:
        tags[atom.key] = value
    return replace(ctx, tags=tags)


def events_of(ctx: EvalContext, atom: Atom) -> tuple[Event, ...]:
    """The events of `ctx` that an event atom's queries look at (name and project)."""
    return tuple(e for e in ctx.events if _belongs(e, atom, ctx))


def with_events(ctx: EvalContext, atom: Atom, events: Iterable[Event]) -> EvalContext:
    """`ctx` with the events of `atom` replaced by `events` (the other events are kept)."""
    kept = tuple(e for e in ctx.events if not _belongs(e, atom, ctx))
    return replace(ctx, events=kept + tuple(events))


def _belongs(event: Event, atom: Atom, ctx: EvalContext) -> bool:
    project = event.project if event.project is not None else ctx.project
    wanted = atom.project if atom.project is not None else ctx.project
    return event.name == atom.key and project == wanted
