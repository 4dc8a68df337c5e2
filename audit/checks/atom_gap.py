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
  predicate under the reference evaluator (`'45 days' > 30`, `True == 'true'`), or is None;
- wrong case: every value differs from the predicate's literal only in case (`'gold'`, `'Gold'`);
- outside taxonomy: the values are the fixed set the code validates the value against (an
  Enum, `Literal`, `z.enum`, a membership check: `_domains`) and none satisfies the predicate;
- idempotency scope: a key of the EMU's enabled `policy.idempotency.scope` is not supplied
  ("missing or null required scope inputs suppress selection") — the kinds above, for it.
An untraceable context (see `_context`) yields no "never built" claim. A required *event* (a
positive clause, `COUNT … >= n`) is not a caller's to supply: when no code emits it, one
finding on the EMU says so (never emitted).

The findings are `unmatchable` — the reachability matrix then says `no` — when every caller of
the point has a gap other than a conditional omission, or a required event is never emitted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.flow.dataflow import MUTATING_METHODS
from topo.analyzers.flow.derived import CONDITIONAL_GUARDS, holding_condition
from topo.analyzers.ir import Call, Guard, GuardKind, Value
from topo.audit import codes
from topo.audit.checks._context import Supply, context_supply
from topo.audit.checks._domains import value_domain
from topo.audit.checks._emus import emu_place, parsed_emus
from topo.audit.checks._event_names import drifted_names
from topo.audit.checks._integration import calls_by_point
from topo.audit.checks._producers import Producers, event_key, event_producers
from topo.audit.checks._registry import CheckContext, check
from topo.audit.checks._value_types import type_mismatch, value_mismatch
from topo.audit.dsl.ast import (And, Compare, Count, EventQuery, EventRef, Exists, Expr, InList,
                                Or, StateRef, StrOp, TagRef, Truthy)
from topo.audit.dsl.deps import holds_at_zero, operand_refs
from topo.analyzers.model import Site
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["atom_gap", "required_atoms", "scope_atoms"]


@dataclass(frozen=True, slots=True)
class Need:
    kind: str                       # "state" | "tag" | "event"
    key: str
    predicates: tuple[Expr, ...]    # the predicates that read it
    scope: bool = False             # a key of the EMU's idempotency scope

    @property
    def accessor(self) -> str:
        return f"{self.kind}.{self.key}"


@dataclass(frozen=True, slots=True)
class _Gap:
    decision: Site
    need: Need
    kind: str
    detail: str                     # the rest of the message, with an `{emu}` slot

    @property
    def blocking(self) -> bool:
        """Whether this caller can never select the EMU (a condition may still build it)."""
        return self.kind != "conditional omission"


@check(codes.ATOM_GAP)
def atom_gap(ctx: CheckContext) -> Iterator[Finding]:
    callers = calls_by_point(ctx)
    supplies: dict[str, Supply] = {}
    producers: Producers | None = None
    for parsed in parsed_emus(ctx.emus):
        emu = parsed.emu
        decisions = callers.get(str(emu.decision_point), []) if emu.decision_point else []
        if not decisions:
            continue        # no caller: INVOKE-GAP's business
        needs = (*required_atoms(parsed.ast), *scope_atoms(emu))
        gaps = []
        for decision in decisions:
            if decision.id not in supplies:
                supplies[decision.id] = context_supply(ctx, decision)
            gaps += [g for need in needs if need.kind != "event"
                     for g in [_gap(ctx, decision, need, supplies[decision.id])] if g]
        blocked = {g.decision.id for g in gaps if g.blocking}
        unmatchable = all(d.id in blocked for d in decisions)
        for gap in gaps:
            yield ctx.finding(
                codes.ATOM_GAP, location=gap.decision.location, symbol=gap.decision.symbol,
                emu_key=emu.emu_key, snippet=f"{emu.emu_key} {gap.need.accessor} {gap.kind}",
                message=f"`{gap.decision.symbol}` invokes `{emu.decision_point}` "
                        f"{gap.detail.format(emu=f'EMU `{emu.label}`')} ({gap.kind})",
                related=(emu.location,), unmatchable=unmatchable)
        events = [n for n in needs if n.kind == "event"]
        if events:
            producers = producers or event_producers(ctx)
            yield from _unemitted(ctx, emu, events, producers)


def scope_atoms(emu: Emu) -> tuple[Need, ...]:
    """The state keys of an enabled idempotency scope: "Missing or null required scope inputs
    suppress selection" (memrail-facts), so each is required like a trigger's atom."""
    idempotency = emu.policy.get("idempotency")
    if not isinstance(idempotency, dict) or idempotency.get("enabled") is not True:
        return ()
    scope = idempotency.get("scope")
    keys = [k for k in scope if isinstance(k, str) and "{" not in k] \
        if isinstance(scope, list) else []
    return tuple(Need("state", key, (), scope=True) for key in dict.fromkeys(keys))


def _unemitted(ctx: CheckContext, emu: Emu, events: list[Need],
               producers: Producers) -> Iterator[Finding]:
    """A required event (a positive clause, `COUNT … >= n`) that no code emits: the trigger
    stays false. A near-miss name is EVENT-NAME-DRIFT's; an EMU-only tree proves nothing, and
    neither does an event of a named other project (`event.billing.s.v.o`): its producer lives
    with that project (COHERENCE-GAP asks whether the dependency is declared)."""
    if not producers.read_code:
        return
    for need in events:
        if event_key(need.key) != need.key or producers.of(need.key) or \
                drifted_names(need.key, producers.names):
            continue
        yield ctx.finding(
            codes.ATOM_GAP, **emu_place(emu), snippet=f"{emu.emu_key} {need.accessor} never "
            f"emitted", message=f"EMU `{emu.label}` requires `{need.accessor}` to have "
            f"happened, but no code in the repository emits `{event_key(need.key)}` "
            f"(never emitted)", inferred=bool(producers.uncertain), unmatchable=True)


def required_atoms(ast: Expr) -> tuple[Need, ...]:
    """State and tag atoms, and events, whose absence makes `ast` false, in source order, each
    with the predicates on it that must hold for `ast` to hold (those reached through AND only).

    >>> from topo.audit.dsl import parse_trigger
    >>> [n.accessor for n in required_atoms(parse_trigger(
    ...     "state.a.b > 1 AND (tag.k == 'x' OR state.a.b EXISTS) AND NOT state.c.d").ast)]
    ['state.a.b']
    >>> [n.accessor for n in required_atoms(parse_trigger(
    ...     "event.a.b.c IN 'P1D' AND NOT event.d.e.f IN 'P1D' AND COUNT(event.g.h.i IN 'P7D') "
    ...     ">= 2 AND COUNT(event.j.k.l IN 'P7D') < 3").ast)]
    ['event.a.b.c', 'event.g.h.i']
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
        case EventQuery(event):
            return {("event", _event_name(event)): []}
        case Count(query) if not holds_at_zero(node):
            return {("event", _event_name(query.event)): []}
    return {}       # NOT, and a COUNT that holds on empty history: absence does not make them false


def _event_name(event: EventRef) -> str:
    return f"{event.project}.{event.name}" if event.project else event.name


def _key(ref: StateRef | TagRef) -> tuple[str, str]:
    return ("state", ref.key) if isinstance(ref, StateRef) else ("tag", ref.kind)


# ---- one dependency at one caller ---------------------------------------------------------

def _gap(ctx: CheckContext, decision: Site, need: Need, supply: Supply) -> _Gap | None:
    """How `decision` fails to supply `need`, or None when it supplies it."""
    suppliers = [a for a in supply.atoms if (a.attr("kind"), a.attr("key")) == (need.kind,
                                                                                   need.key)]
    found = _supplied_gap(ctx, decision, need, suppliers) if suppliers else \
        _absent_gap(need, supply)
    if found is None:
        return None
    kind, detail = found
    if need.scope:
        kind, detail = "idempotency scope", detail.replace(
            "which {emu} requires", "a key of the idempotency scope of {emu}, so selection "
            "is suppressed").replace("while {emu} requires it", "while the idempotency scope "
                                     "of {emu} requires it")
    return _Gap(decision, need, kind, detail)


def _supplied_gap(ctx: CheckContext, decision: Site, need: Need,
                  suppliers: list[Site]) -> tuple[str, str] | None:
    conditions = _omissions(ctx, decision, suppliers)
    if conditions is not None:
        return ("conditional omission", f"with `{need.accessor}` built only when "
                f"`{_braces(conditions)}`, while {{emu}} requires it")
    mismatch = type_mismatch(need.kind, need.key, need.predicates, suppliers)
    if mismatch is not None:
        built, predicate = mismatch
        return ("wrong type", f"with `{need.accessor}` built as {_braces(built)}, which "
                f"cannot satisfy `{_braces(predicate)}` in {{emu}}")
    values = value_mismatch(need.kind, need.key, need.predicates,
                            [_possible_values(ctx, atom) for atom in suppliers])
    if values is not None:
        kind, built, predicate = values
        return (kind, f"with `{need.accessor}` built as {_braces(built)}, which cannot "
                f"satisfy `{_braces(predicate)}` in {{emu}}")
    return None


def _absent_gap(need: Need, supply: Supply) -> tuple[str, str] | None:
    other = _other_kind(need, supply)
    if other is not None:
        return "wrong kind", f"with `{other}` where {{emu}} reads `{need.accessor}`"
    if supply.is_open(need.kind, need.key):
        return None
    return "never built", f"without `{need.accessor}`, which {{emu}} requires"


def _possible_values(ctx: CheckContext, atom: Site) -> tuple[tuple[str, ...], str, bool]:
    """The strings an atom's value can be: its literal, or the fixed set the code validates
    its value against (see `_domains`); () when neither is known."""
    value = atom.attr("value")
    if atom.attr("value_literal") is not False and isinstance(value, str):
        return (value,), f"`{value!r}`", False
    found = ctx.calls.get(str(atom.attr("call")))
    argument = _value_argument(found[1]) if found is not None else None
    domain = value_domain(ctx, found[0], found[1], argument) \
        if found is not None and argument is not None else None
    if not domain:
        return (), "", False
    return tuple(sorted(domain)), f"one of {', '.join(repr(v) for v in sorted(domain))}", True


def _value_argument(call: Call) -> Value | None:
    """The value argument of an atom builder: `state(k, v)`, `tag(kind, v)` (or `value=`)."""
    return call.kwarg("value") or (call.args[1] if len(call.args) > 1 else None)


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
        seen.add((guard.condition.text if guard.condition else guard.kind.value, guard.polarity,
                  holding_condition(guard, atom.language)))
    if any((text, not polarity) in {(t, p) for t, p, _ in seen} for text, polarity, _ in seen):
        return None     # if/else (or both arms of a ternary) build it either way
    return " or ".join(sorted({holds for _, _, holds in seen}))


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
