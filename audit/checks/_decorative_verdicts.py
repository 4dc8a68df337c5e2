"""Decorative verdicts: a model's or a decision's verdict computed, then ignored by the effect.

`model_approved = review.approved` beside `auto_pay = attempts > 1; if auto_pay: pay()`: the
code asks for a verdict, and the effect in the same function runs on something else. The
verdict reads like the control, and a reviewer takes it for one, but nothing reads it: a
control that does not control (issue #14). Only a value named like a verdict (`approved`,
`allowed`, `safe`, `risk`, `verdict`, `decision`, … as a word of its name) assigned to a
local name from model output or from a decision or approval call, never read anywhere in its
function (nested functions included), with a consequential executor later in that function
on a chain nothing enforced governs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.ir import Assignment, FileIR, Guard, GuardKind, Value
from topo.analyzers.model import SiteKind
from topo.analyzers.packs import words
from topo.analyzers.paths import root_of
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import sites_of_kind
from topo.audit.graph.chains import Chain, Hop

__all__ = ["DecorativeVerdict", "decorative_verdicts", "VERDICT_WORDS"]

# Words of a local name that say it holds a verdict (`model_approved`, `isSafe`, `risk_level`).
VERDICT_WORDS = frozenset({"approved", "approve", "approval", "allowed", "allow", "permitted",
                           "safe", "unsafe", "risk", "risky", "verdict", "decision",
                           "judgement", "judgment"})
_TESTS = frozenset({GuardKind.IF, GuardKind.EARLY_EXIT, GuardKind.TERNARY, GuardKind.BOOL_OP,
                    GuardKind.WHILE, GuardKind.MATCH_CASE})


@dataclass(frozen=True, slots=True)
class DecorativeVerdict:
    """`assignment` computes a verdict from `labels` (model or control sites) that nothing
    reads; `chain` reaches an executor of the same function, under `guard` if any."""

    file: FileIR
    assignment: Assignment
    labels: tuple[str, ...]
    chain: Chain
    guard: Guard | None


def decorative_verdicts(ctx: CheckContext) -> Iterator[DecorativeVerdict]:
    candidates = [(file, a, labels) for file in ctx.facts.files for a in file.assignments
                  if _verdict_name(a.target) and (labels := _labels(ctx, file, a))]
    if not candidates:
        return
    effects = _ungoverned_effects(ctx)
    for file, assignment, labels in candidates:
        if _read(file, assignment):
            continue
        found = _effect_after(effects.get((file.path, assignment.scope), []), assignment)
        if found is not None:
            chain, guard = found
            yield DecorativeVerdict(file, assignment, labels, chain, guard)


def _verdict_name(target: str) -> bool:
    """A plain local name with a verdict word in it."""
    if not target.isidentifier() or target == "_":
        return False
    return any(word in VERDICT_WORDS for word in words(target))


def _labels(ctx: CheckContext, file: FileIR, assignment: Assignment) -> tuple[str, ...]:
    """The model and enforced-control sites the assigned value comes from."""
    scope, value = assignment.scope, assignment.value
    labels = ctx.facts.model.value_labels(file, scope, value) | \
        ctx.facts.authority.value_labels(file, scope, value)
    return tuple(sorted(labels))


def _read(file: FileIR, assignment: Assignment) -> bool:
    """Whether the assigned name is read anywhere in its function or the functions nested in
    it (a later reassignment's own value, a condition, an argument, a return)."""
    name, scope = assignment.target, assignment.scope

    def inside(other: str) -> bool:
        return other == scope or other.startswith(scope + ".")

    def reads(value: Value | None) -> Iterator[str]:
        if value is None:
            return
        if value.ref:
            yield value.ref
        yield from value.reads
        for _, entry in value.entries:
            yield from reads(entry)

    paths: list[str] = []
    for other in file.assignments:
        if inside(other.scope):
            paths += reads(other.value)
            paths += other.condition.reads if other.condition else ()
            paths += [other.target] if other.augmented and other.target == name else []
    for ret in file.returns:
        if inside(ret.scope):
            paths += reads(ret.value)
    for call in file.calls:
        if inside(call.scope):
            paths += [call.receiver] if call.receiver else []
            for value in (*call.args, *(v for _, v in call.kwargs)):
                paths += reads(value)
    for block in file.blocks:
        if inside(block.scope) and block.guard.condition is not None:
            paths += block.guard.condition.reads
    return any(root_of(path) == name for path in paths)


def _ungoverned_effects(ctx: CheckContext) -> dict[tuple[str, str], list[tuple[Hop, Chain]]]:
    """Each hop of a chain nothing enforced governs, by the function it is made in."""
    found: dict[tuple[str, str], list[tuple[Hop, Chain]]] = {}
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            if chain.governed:
                continue
            for hop in chain.hops:
                found.setdefault((hop.file.path, hop.call.scope), []).append((hop, chain))
    return found


def _effect_after(effects: list[tuple[Hop, Chain]],
                  assignment: Assignment) -> tuple[Chain, Guard | None] | None:
    """An executor called later in the verdict's function, on a chain nothing enforced
    governs, with the nearest test that guards it there."""
    after = (assignment.location.line, assignment.location.column)
    for hop, chain in effects:
        if (hop.call.location.line, hop.call.location.column) > after:
            tests = [g for g in hop.call.guards if g.kind in _TESTS and g.condition]
            return chain, (tests[-1] if tests else None)
    return None
