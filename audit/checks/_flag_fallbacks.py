"""Fail-open flags: a permission the `except` handler of a failed control call leaves granted.

Seed 000, "Handle selected actions": "For a dangerous decision point, an empty selection or
client error should resolve to a safe documented outcome"; "Agent steering", "Design the
default explicitly": an unavailable control service "should not fall through". Two shapes
(issue #14):
- a flag: `allowed = True` then `try: allowed = bool(decide(...).selected) except: pass`
  (or `except: allowed = True`) and later `if allowed: effect` — when the decision raises, the
  flag keeps (or gets) a value for which the effect's guard holds;
- a predicate helper: `def is_allowed(): try: return decide(...).selected except: return
  True`, and `if is_allowed(): effect` — the handler answers yes.
A handler that sets the flag to a value the guard rejects, raises, returns or otherwise
leaves the block (`exits`) fails closed and is not reported; so is a flag whose permissive
value is not a literal (nothing tells what it holds).
"""

from __future__ import annotations

from collections.abc import Container, Iterator
from dataclasses import dataclass

from topo.analyzers.ir import (LITERAL_KINDS, Assignment, Comparison, FileIR,
                               Guard, GuardKind, GuardedBlock, Return, Value, ValueKind)
from topo.analyzers.model import Location, Site
from topo.audit.checks._evidence import scope_symbol
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.chains import Chain, Hop

__all__ = ["FlagFallback", "FlagIndex", "flag_fallbacks"]

# Guards that pass a call only when their condition has the guard's polarity.
_TESTS = frozenset({GuardKind.IF, GuardKind.EARLY_EXIT, GuardKind.TERNARY, GuardKind.BOOL_OP,
                    GuardKind.WHILE})


@dataclass(frozen=True, slots=True)
class FlagFallback:
    """One permission that holds when `control` raised: `where` sets it (the flag's
    initialisation, a handler's assignment or a helper's `return`), `flag` is what the
    effect's guard reads, `value` the permissive literal, `shape` one of `initial`,
    `handler`, `helper`."""

    where: Location
    symbol: str
    flag: str
    value: str
    shape: str
    control: Site
    fallback: Site | None
    hop: Hop
    guard: Guard


@dataclass(frozen=True, slots=True)
class _FileIndex:
    """One file's assignments by (scope, target), and its `except` blocks of control calls
    and its `return`s by scope."""

    writes: dict[tuple[str, str], list[Assignment]]
    handlers: dict[str, list[GuardedBlock]]
    returns: dict[str, list[Return]]

    @classmethod
    def of(cls, file: FileIR | None, control_calls: Container[str]) -> _FileIndex:
        index = cls({}, {}, {})
        if file is None:
            return index
        for a in file.assignments:
            if not a.augmented and not a.element:
                index.writes.setdefault((a.scope, a.target), []).append(a)
        for block in file.blocks:
            if block.guard.kind is GuardKind.EXCEPT and \
                    any(call in control_calls for call in block.guard.try_calls):
                index.handlers.setdefault(block.scope, []).append(block)
        for ret in file.returns:
            index.returns.setdefault(ret.scope, []).append(ret)
        return index


class FlagIndex:
    """What the flag questions read, indexed once per run, a file when a question first
    reaches it (the chains pass through a few of a repository's files): `_FileIndex`, and the
    answers found for each call already examined (many chains share a hop)."""

    def __init__(self, ctx: CheckContext, controls: dict[str, Site], fallbacks: dict) -> None:
        self.ctx, self.controls, self.fallbacks = ctx, controls, fallbacks
        self.control_calls = {str(s.attr("call")): s for s in controls.values()}
        self.sources = {file.path: file for file in ctx.facts.files}
        self.files: dict[str, _FileIndex] = {}
        self.by_call: dict[str, tuple[FlagFallback, ...]] = {}

    def of(self, file: FileIR) -> _FileIndex:
        """The index of the run's file at `file.path`."""
        found = self.files.get(file.path)
        if found is None:
            found = self.files[file.path] = _FileIndex.of(self.sources.get(file.path),
                                                          self.control_calls)
        return found


def flag_fallbacks(index: FlagIndex, chain: Chain) -> Iterator[FlagFallback]:
    """The permissions a failed control call leaves granted on the guards of `chain`."""
    for hop in chain.hops:
        found = index.by_call.get(hop.call.id)
        if found is None:
            found = index.by_call[hop.call.id] = tuple(_hop_fallbacks(index, hop))
        yield from found


def _hop_fallbacks(index: FlagIndex, hop: Hop) -> Iterator[FlagFallback]:
    for guard in hop.call.guards:
        if guard.kind not in _TESTS or guard.condition is None:
            continue
        if not guard.polarity and len(guard.condition.comparisons) != 1:
            continue    # `if not a and b: return` lets the call through either way
        for comparison in guard.condition.comparisons:
            yield from _flag_tests(index, hop, guard, comparison)
            yield from _helper_tests(index, hop, guard, comparison)


def _flag_tests(index: FlagIndex, hop: Hop, guard: Guard,
                comparison: Comparison) -> Iterator[FlagFallback]:
    left = comparison.left
    if left.kind is not ValueKind.NAME or not left.ref:
        return
    yield from _flag_permissions(index, _Read(hop.file, hop.call.scope, left.ref,
                                              guard.location), hop, guard, comparison)


@dataclass(frozen=True, slots=True)
class _Read:
    """Where a flag is read: the function, the name, and the place of the read (a test, or
    a helper's `return`), which must come after the handler."""

    file: FileIR
    scope: str
    flag: str
    place: Location


def _flag_permissions(index: FlagIndex, read: _Read, hop: Hop, guard: Guard,
                      comparison: Comparison) -> Iterator[FlagFallback]:
    """The permissive values a flag holds at `read` when its control call raised."""
    file, scope = read.file, read.scope
    writes = index.of(file).writes.get((scope, read.flag), [])
    for decided in writes:
        tried = [g for g in decided.guards if g.kind is GuardKind.TRY]
        if not tried:
            continue
        for control, handler in _handlers(index, file, scope, decided, tried):
            if handler.guard.exits or not _after(read.place, handler.guard):
                continue
            found = _permission(writes, decided, handler, guard, comparison)
            if found is not None:
                shape, write = found
                yield FlagFallback(write.location, scope_symbol(file, scope), read.flag,
                                   write.value.text, shape, control,
                                   index.fallbacks.get(_place(handler.guard.location)), hop,
                                   guard)


def _handlers(index: FlagIndex, file: FileIR, scope: str, decided: Assignment,
              tried: list[Guard]) -> Iterator[tuple[Site, GuardedBlock]]:
    """The `except` handlers of the `try` that assigns the flag from a control call."""
    labels = index.ctx.facts.authority.value_labels(file, scope, decided.value)
    tries = {_place(g.location) for g in tried}
    for label in sorted(labels & index.controls.keys()):
        control = index.controls[label]
        call = str(control.attr("call"))
        found = index.ctx.calls.get(call)
        if found is None or not {_place(g.location) for g in found[1].guards
                                 if g.kind is GuardKind.TRY} & tries:
            continue
        for block in index.of(file).handlers.get(scope, ()):
            if call in block.guard.try_calls:
                yield control, block


def _permission(writes: list[Assignment], decided: Assignment, handler: GuardedBlock,
                guard: Guard, comparison: Comparison) -> tuple[str, Assignment] | None:
    """What the flag holds after the handler ran, if the guard lets the call through on it:
    the handler's own assignment, else the last assignment before the `try`."""
    place = _place(handler.guard.location)
    in_handler = [w for w in writes if any(
        g.kind is GuardKind.EXCEPT and _place(g.location) == place for g in w.guards)]
    if in_handler:
        last = max(in_handler, key=lambda w: (w.location.line, w.location.column))
        return ("handler", last) if _passes(guard, comparison, last.value) else None
    start = min(g.location.line for g in decided.guards if g.kind is GuardKind.TRY)
    before = [w for w in writes if w.location.line < start
              and not any(g.kind in (GuardKind.TRY, GuardKind.EXCEPT) for g in w.guards)]
    if not before:
        return None
    initial = max(before, key=lambda w: (w.location.line, w.location.column))
    return ("initial", initial) if _passes(guard, comparison, initial.value) else None


def _helper_tests(index: FlagIndex, hop: Hop, guard: Guard,
                  comparison: Comparison) -> Iterator[FlagFallback]:
    """`if is_allowed(x):` where the repository's `is_allowed` answers yes from the handler
    of its control call (a `return True` there, or after it when the handler falls through),
    or returns its own flag left permissive by the handler."""
    graph = index.ctx.facts.graph
    for call_id in _predicate_calls(hop, comparison.left):
        target = graph.resolved.get(call_id)
        found = graph.definitions.get(target) if target else None
        if found is None:
            continue
        file, definition = found
        scope = definition.qualname
        returns = index.of(file).returns.get(scope, [])
        for ret in returns:     # `return allowed`: the helper's own flag
            if not ret.guards and ret.value is not None \
                    and ret.value.kind is ValueKind.NAME and ret.value.ref:
                yield from _flag_permissions(
                    index, _Read(file, scope, ret.value.ref, ret.location), hop, guard,
                    comparison)
        for handler in index.of(file).handlers.get(scope, ()):
            answer = _handler_answer(returns, handler)
            if answer is None or answer.value is None or \
                    not _passes(guard, comparison, answer.value):
                continue
            failed = sorted(set(handler.guard.try_calls) & index.control_calls.keys())
            yield FlagFallback(answer.location, scope_symbol(file, scope), comparison.left.text,
                               answer.value.text, "helper", index.control_calls[failed[0]],
                               index.fallbacks.get(_place(handler.guard.location)), hop, guard)


def _predicate_calls(hop: Hop, value: Value) -> list[str]:
    """The calls whose answer the tested value is: called in place, or assigned to the
    tested name in the same function (`ok = is_allowed(x)`)."""
    if value.kind is ValueKind.CALL and value.call:
        return [value.call]
    if value.kind is not ValueKind.NAME or not value.ref:
        return []
    return [a.value.call for a in hop.file.assignments
            if a.scope == hop.call.scope and a.target == value.ref
            and a.value.kind is ValueKind.CALL and a.value.call]


def _handler_answer(returns: list[Return], handler: GuardedBlock) -> Return | None:
    """The literal a function returns when its control call raised: a `return` in the
    handler, or, when the handler falls through, the next unconditional `return`."""
    place = _place(handler.guard.location)
    inside = [r for r in returns if r.guards and r.guards[-1].kind is GuardKind.EXCEPT
              and _place(r.guards[-1].location) == place]
    if inside:
        return inside[0] if _literal(inside[0].value) else None
    if handler.guard.exits:
        return None
    after = sorted((r for r in returns if not r.guards
                    and r.location.line > handler.guard.location.line),
                   key=lambda r: r.location.line)
    return after[0] if after and _literal(after[0].value) else None


def _passes(guard: Guard, comparison: Comparison, value: Value | None) -> bool:
    """Whether the guard lets its call through when the tested value is `value` (a
    literal); False when that cannot be told."""
    if not _literal(value):
        return False
    holds = _evaluate(comparison, value.literal)
    return holds is not None and holds == guard.polarity


def _evaluate(comparison: Comparison, literal: object) -> bool | None:
    right = comparison.right
    if comparison.op == "truthy":
        return bool(literal)
    if comparison.op == "falsy":
        return not literal
    if right is None or not _literal(right):
        return None
    match comparison.op:
        case "==" | "is":
            return literal == right.literal and type(literal) is type(right.literal)
        case "!=" | "is not":
            return not (literal == right.literal and type(literal) is type(right.literal))
    return None


def _literal(value: Value | None) -> bool:
    return value is not None and value.kind in LITERAL_KINDS


def _after(place: Location, handler: Guard) -> bool:
    """The read comes after the handler (it is not inside the `try` itself)."""
    return (place.line, place.column) > (handler.location.line, handler.location.column)


def _place(location: Location) -> tuple[str, int, int]:
    return (location.file, location.line, location.column)


