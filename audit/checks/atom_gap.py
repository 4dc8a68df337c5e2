"""ATOM-GAP: a caller of a decision point does not supply what an EMU's trigger requires.

Seed 000, "Trigger reachability": "A positive predicate on an absent atom evaluates false";
"Reachability includes values, not just keys" (the `days_since_last_login` builder); and
"Test required-atom presence on every caller". Troubleshooting adds the wrong kind
(`state("ticket.priority", …)` does not satisfy `tag.priority == …`) and the type that cannot
satisfy the operator (a Python bool against `== 'true'`).

A dependency is *required* when its absence makes the whole trigger false: it sits in a
positive predicate reached through AND, or in every branch of an OR, never under NOT (those are
ABSENCE-PERMITS' business). For each EMU and each decision call naming its point, each required
state or tag is checked against what that call's context supplies:
- never built: no atom of that key reaches the call, and the context is traceable;
- conditionally omitted: every atom of that key is built or appended under a condition that
  does not also guard the decision call (an if/else pair building it both ways is not);
- wrong kind: only the other namespace supplies it (`state.ticket.priority` for `tag.priority`);
- wrong type: every atom of that key has a literal value of another type that fails the
  predicate under the reference evaluator (`'45 days' > 30`, `True == 'true'`), or is None.
An untraceable context (see `_context`) yields no "never built" claim.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.flow.dataflow import MUTATING_METHODS
from topo.analyzers.flow.derived import CONDITIONAL_GUARDS
from topo.analyzers.ir import Guard, GuardKind
from topo.audit import codes
from topo.audit.checks._context import Supply, context_supply
from topo.audit.checks._emus import parsed_emus
from topo.audit.checks._integration import calls_by_point
from topo.audit.checks._registry import CheckContext, check
from topo.audit.checks._value_types import type_mismatch
from topo.audit.dsl.ast import (And, Compare, Exists, Expr, InList, Or, StateRef, StrOp, TagRef,
                                Truthy)
from topo.audit.dsl.deps import operand_refs
from topo.analyzers.model import Site
from topo.audit.model import Finding

__all__ = ["atom_gap", "required_atoms"]


@dataclass(frozen=True, slots=True)
class Need:
    kind: str                       # "state" | "tag"
    key: str
    predicates: tuple[Expr, ...]    # the predicates that read it

    @property
    def accessor(self) -> str:
        return f"{self.kind}.{self.key}"


@check(codes.ATOM_GAP)
def atom_gap(ctx: CheckContext) -> Iterator[Finding]:
    callers = calls_by_point(ctx)
    supplies: dict[str, Supply] = {}
    for parsed in parsed_emus(ctx.emus):
        emu = parsed.emu
        needs = required_atoms(parsed.ast) if emu.decision_point else ()
        for decision in callers.get(str(emu.decision_point), []) if needs else ():
            if decision.id not in supplies:
                supplies[decision.id] = context_supply(ctx, decision)
            supply = supplies[decision.id]
            for need in needs:
                gap = _gap(ctx, decision, need, supply)
                if gap is None:
                    continue
                kind, detail = gap
                yield ctx.finding(
                    codes.ATOM_GAP, location=decision.location, symbol=decision.symbol,
                    emu_key=emu.emu_key, snippet=f"{emu.emu_key} {need.accessor} {kind}",
                    message=f"`{decision.symbol}` invokes `{emu.decision_point}` "
                            f"{detail.format(emu=f'EMU `{emu.label}`')} ({kind})",
                    related=(emu.location,))


def required_atoms(ast: Expr) -> tuple[Need, ...]:
    """State and tag atoms whose absence makes `ast` false, in source order, each with the
    predicates on it that must hold for `ast` to hold (those reached through AND only).

    >>> from topo.audit.dsl import parse_trigger
    >>> [n.accessor for n in required_atoms(parse_trigger(
    ...     "state.a.b > 1 AND (tag.k == 'x' OR state.a.b EXISTS) AND NOT state.c.d").ast)]
    ['state.a.b']
    """
    return tuple(Need(kind, key, tuple(predicates))
                 for (kind, key), predicates in _required(ast).items())


def _required(node: Expr) -> dict[tuple[str, str], list[Expr]]:
    match node:
        case And(left, right):
            merged = _required(left)
            for key, predicates in _required(right).items():
                merged.setdefault(key, []).extend(predicates)
            return merged
        case Or(left, right):
            # Required in both branches, yet no single predicate must hold: keep no predicate.
            left_needs, right_needs = _required(left), _required(right)
            return {key: [] for key in left_needs if key in right_needs}
        case Compare(_, left, right):
            found: dict[tuple[str, str], list[Expr]] = {}
            for operand in (left, right):
                for ref in operand_refs(operand):
                    found.setdefault(_key(ref), []).append(node)
            return found
        case Exists(ref) | Truthy(ref) | InList(ref) | StrOp(_, ref):
            return {_key(ref): [node]}
    return {}       # NOT, events and COUNT: absence does not make them false


def _key(ref: StateRef | TagRef) -> tuple[str, str]:
    return ("state", ref.key) if isinstance(ref, StateRef) else ("tag", ref.kind)


# ---- one dependency at one caller ---------------------------------------------------------

def _gap(ctx: CheckContext, decision: Site, need: Need, supply: Supply) -> tuple[str, str] | None:
    """(gap kind, the rest of the message with an `{emu}` slot), or None when supplied."""
    suppliers = [a for a in supply.atoms if (a.attr("kind"), a.attr("key")) == (need.kind,
                                                                                   need.key)]
    if suppliers:
        conditions = _omissions(ctx, decision, suppliers)
        if conditions is not None:
            return ("conditional omission", f"with `{need.accessor}` built only when "
                    f"`{_braces(conditions)}`, while {{emu}} requires it")
        mismatch = type_mismatch(need.kind, need.key, need.predicates, suppliers)
        if mismatch is not None:
            built, predicate = mismatch
            return ("wrong type", f"with `{need.accessor}` built as {_braces(built)}, which "
                    f"cannot satisfy `{_braces(predicate)}` in {{emu}}")
        return None
    other = _other_kind(need, supply)
    if other is not None:
        return "wrong kind", f"with `{other}` where {{emu}} reads `{need.accessor}`"
    if supply.is_open(need.kind, need.key):
        return None
    return "never built", f"without `{need.accessor}`, which {{emu}} requires"


def _braces(text: str) -> str:
    """Code text placed in a str.format template: `{{x}}` must survive formatting."""
    return text.replace("{", "{{").replace("}", "}}")


def _omissions(ctx: CheckContext, decision: Site, suppliers: list[Site]) -> str | None:
    """The condition text when every supplier is built under a condition that can be false
    while the decision is still made; None when some supplier is always built."""
    decision_guards = _guards_of(ctx, str(decision.attr("call")))
    seen: set[tuple[str, bool]] = set()
    for atom in suppliers:
        guard = _innermost_condition(ctx, atom)
        if guard is None or guard in decision_guards:
            return None
        seen.add((guard.condition.text if guard.condition else guard.kind.value, guard.polarity))
    if any((text, not polarity) in seen for text, polarity in seen):
        return None     # if/else (or both arms of a ternary) build it either way
    return " or ".join(sorted({text for text, _ in seen}))


def _innermost_condition(ctx: CheckContext, atom: Site) -> Guard | None:
    if not atom.attr("conditional"):
        return None
    call_id = str(atom.attr("call"))
    holders = [call_id, *(c.id for _, c in ctx.calls.values() if c.name in MUTATING_METHODS
                          and call_id in _nested_calls(c))]
    for holder in holders:
        for guard in reversed(_guards_of(ctx, holder)):
            # An early exit (`if user is None: return`) stops the decision or changes the
            # whole context: that is not one atom's omission.
            if guard.kind in CONDITIONAL_GUARDS and guard.kind is not GuardKind.EARLY_EXIT:
                return guard
    return None


def _guards_of(ctx: CheckContext, call_id: str) -> tuple[Guard, ...]:
    found = ctx.calls.get(call_id)
    return found[1].guards if found is not None else ()


def _nested_calls(call) -> set[str]:  # noqa: ANN001 - an IR Call
    ids: set[str] = set()
    stack = [*call.args, *(v for _, v in call.kwargs)]
    while stack:
        value = stack.pop()
        if value.call:
            ids.add(value.call)
        stack.extend(v for _, v in value.entries)
    return ids


def _other_kind(need: Need, supply: Supply) -> str | None:
    """`state.ticket.priority` supplied where `tag.priority` is read, or the reverse."""
    last = need.key.rsplit(".", 1)[-1]
    for atom in supply.atoms:
        key = str(atom.attr("key"))
        if need.kind == "tag" and atom.attr("kind") == "state" and \
                (key == need.key or key.endswith("." + need.key)):
            return f"state.{key}"
        if need.kind == "state" and atom.attr("kind") == "tag" and key in (need.key, last):
            return f"tag.{key}"
    return None
