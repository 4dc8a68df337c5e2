"""Live selections that a custom dispatcher runs without the checks the SDK executor makes.

Seed 000, "Integration invariants": "Selection alone does not authorize a side effect.
Preserve the full selection's policy and lifecycle metadata through dispatch. The SDK executor
enforces supported modes and lifecycle states" — under `advisory`, "tool calls and routes are
not dispatched by the SDK executor", and a `canary` EMU's "SDK execution requires affirmative
cohort membership". `decide_and_execute` gets this for free; code that runs what `decide`
selected must make the same tests. "Control failures to test": "Evaluation leak: dry-run/
advisory selections reach a live dispatcher", "Metadata loss: a custom adapter drops policy or
lifecycle information before authorization".

A selection (a `decide` that does not execute and is no literal dry run, the dry-run case being
EVAL-LEAK's own) is put to live use where it guards or feeds an executor's chain (the chain's
`enforced_by`) or feeds a call whose function is picked at run time (`TOOLS[tool_id](args)`).
Such a use is unguarded when no guard on the way tests the selection's metadata: it reads no
`policy`/`mode` (advisory) or `lifecycle_state` (canary), and calls no function with the selected
item itself (an authorization contract `allows(item, principal)`; a call on the item's action
alone does not count). A dispatched function handed the whole item may make the test itself, so
it is not judged. It is then reported:

- when the EMUs bound to the decision point include an advisory `tool_call`/`route` EMU, or a
  canary EMU (whose cohort gate must be the application's);
- whatever the EMUs, when the selection passed through a projection that keeps only the
  actions (`[item.action for item in decision.selected]`, `.map((s) => s.action)`): the
  metadata is gone before dispatch, so missing policy cannot fail closed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from topo.analyzers.flow.derived import is_dynamic_call
from topo.analyzers.ir import Call, FileIR, Guard, Value, ValueKind
from topo.analyzers.model import Location, Site, SiteKind
from topo.audit.checks._evidence import call_symbol, executor_text
from topo.audit.checks._registry import CheckContext
from topo.audit.checks._selection import empty_selection_hop
from topo.audit.graph.build import sites_of_kind
from topo.audit.graph.chains import Chain
from topo.audit.policy import Emu

__all__ = ["LiveUse", "unguarded_live_uses"]

# The selected item's metadata the SDK executor tests (seed 000 "Integration invariants").
_POLICY_FIELDS = frozenset({"policy", "mode"})
_LIFECYCLE_FIELDS = frozenset({"lifecycle_state", "lifecycleState", "lifecycle"})
_UNDISPATCHED = frozenset({"tool_call", "route"})    # what `advisory` keeps from the executor
_SEGMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# `[item.action for item in decision.selected]`, `decision.selected.map((s) => s.action)`.
_ACTION = re.compile(r"\.action\b|\[['\"]action['\"]\]")
_SELECTED = re.compile(r"\.selected\b|\[['\"]selected['\"]\]")


@dataclass(frozen=True, slots=True)
class LiveUse:
    """One place a live selection is put to use with none of the executor's tests."""

    decision: Site
    location: Location
    symbol: str
    effect: str                    # what runs: the executor, or the dispatched function
    path: tuple[str, ...]
    reasons: tuple[str, ...]       # why it leaks, each a clause


def unguarded_live_uses(ctx: CheckContext) -> Iterator[LiveUse]:
    """The reported uses, at most one per place."""
    seen: set[Location] = set()
    candidates: _Candidates | None = None
    for decision in _live_decisions(ctx):
        emus = _bound(ctx.emus, decision)
        projection = _projection(ctx, decision)
        candidates = candidates or _candidates(ctx)
        for use in _uses(ctx, candidates, decision, projection is not None):
            if use.location in seen:
                continue
            reasons = _reasons(emus, use.guards_read, projection)
            if reasons:
                seen.add(use.location)
                yield LiveUse(decision, use.location, use.symbol, use.effect, use.path,
                              reasons)


def _live_decisions(ctx: CheckContext) -> Iterator[Site]:
    for decision in sites_of_kind(ctx.graph, SiteKind.DECISION_CALL):
        if decision.attr("executes") is False and decision.attr("dry_run") is not True:
            yield decision


def _bound(emus: Iterable[Emu], decision: Site) -> list[Emu]:
    """The EMUs a call can select: those bound to its literal point, or, for a call that
    names none, the unbound ones. A computed point may be any: none are assumed."""
    if decision.attr("decision_point_literal") is False:
        return []
    point = decision.attr("decision_point")
    return [e for e in emus if e.decision_point == (point if point else None)]


def _reasons(emus: list[Emu], read: frozenset[str], projection: str | None
             ) -> tuple[str, ...]:
    if "item" in read:
        return ()        # the whole item reached an authorization contract
    reasons = []
    if projection is not None:
        reasons.append(f"`{projection}` keeps only the actions, dropping the policy and "
                       f"lifecycle metadata before dispatch")
    advisory = sorted(e.emu_key for e in emus if e.policy.get("mode") == "advisory"
                      and e.action.get("type") in _UNDISPATCHED)
    if advisory and not read & _POLICY_FIELDS:
        reasons.append(f"advisory EMU {_keys(advisory)} can be selected, and nothing on the way "
                       f"tests the policy mode (the SDK executor does not dispatch an advisory "
                       f"tool call or route)")
    canary = sorted(e.emu_key for e in emus if e.state == "canary")
    if canary and not read & _LIFECYCLE_FIELDS:
        reasons.append(f"canary EMU {_keys(canary)} can be selected, and nothing on the way "
                       f"tests the lifecycle state or a cohort (the SDK executor runs a canary "
                       f"only for an affirmative cohort member)")
    return tuple(reasons)


def _keys(keys: list[str]) -> str:
    return ", ".join(f"`{k}`" for k in keys)


# ---- where the selection is used ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Use:
    location: Location
    symbol: str
    effect: str
    path: tuple[str, ...]
    guards_read: frozenset[str]    # metadata fields the guards test; `item` for the whole item


@dataclass(frozen=True, slots=True)
class _Candidates:
    """Where any live decision may be used, gathered once per run (not once per decision:
    a repository with thousands of executors and hundreds of decisions made that quadratic)."""

    # decision id -> (executor, chain) for each chain the decision enforces, in executor order
    # and then in the chain query's order
    enforcing: Mapping[str, tuple[tuple[Site, Chain], ...]]
    dynamic: tuple[tuple[FileIR, Call], ...]     # calls whose function is picked at run time


def _candidates(ctx: CheckContext) -> _Candidates:
    enforcing: dict[str, list[tuple[Site, Chain]]] = defaultdict(list)
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            for decision_id in dict.fromkeys(chain.enforced_by):
                enforcing[decision_id].append((executor, chain))
    return _Candidates({key: tuple(found) for key, found in enforcing.items()},
                       tuple((file, call) for file in ctx.facts.files for call in file.calls
                             if is_dynamic_call(call)))


def _uses(ctx: CheckContext, candidates: _Candidates, decision: Site,
          projected: bool) -> Iterator[_Use]:
    """`projected`: the decision's actions were split from their items, so a name handed on
    is an action, not an item."""
    authority = ctx.facts.authority
    controls = {decision.id: decision}
    used: set[str] = set()       # executors with a use already: the first chain is the one shown
    for executor, chain in candidates.enforcing.get(decision.id, ()):
        if executor.id in used or empty_selection_hop(ctx, chain, controls) is not None:
            continue
        hop = next((h for h in chain.hops if _driven(ctx, h.file, h.call, decision.id)),
                   chain.hops[-1])
        read = frozenset().union(*(_metadata_read(ctx, h.file, h.call, decision.id,
                                                  projected) for h in chain.hops))
        used.add(executor.id)
        yield _Use(hop.call.location, call_symbol(hop.file, hop.call),
                   executor_text(executor),
                   tuple(dict.fromkeys((decision.id, *chain.path))), read)
    for file, call in candidates.dynamic:
        if decision.id in authority.argument_labels(file, call) \
                and not _hands_item(ctx, file, call, decision.id, projected):
            # (a function handed the whole item may test its metadata itself)
            table = (call.receiver or "").removesuffix("[*]")
            yield _Use(call.location, call_symbol(file, call),
                       f"a function picked from `{table}`" if table
                       else "a function picked at run time",
                       (decision.id,),
                       _metadata_read(ctx, file, call, decision.id, projected))


def _driven(ctx: CheckContext, file: FileIR, call: Call, decision_id: str) -> bool:
    authority = ctx.facts.authority
    return decision_id in authority.argument_labels(file, call) or any(
        decision_id in authority.condition_labels(file, call.scope, g.condition)
        for g in call.guards if g.condition is not None)


def _metadata_read(ctx: CheckContext, file: FileIR, call: Call, decision_id: str,
                   projected: bool) -> frozenset[str]:
    """The metadata fields the call's guards test, plus `item` when a guard hands the selected
    item itself (not only its action) to a function."""
    found: set[str] = set()
    by_id = {c.id: c for c in file.calls}
    for guard in call.guards:
        found |= _guard_reads(guard)
        for inner in (by_id.get(c) for c in (guard.condition.calls if guard.condition else ())):
            if inner is None:
                continue
            if _hands_item(ctx, file, inner, decision_id, projected):
                found.add("item")
            found |= {a.literal for a in inner.args if isinstance(a.literal, str)} & \
                (_POLICY_FIELDS | _LIFECYCLE_FIELDS)     # `item.get("lifecycle_state")`
    return frozenset(found)


def _guard_reads(guard: Guard) -> set[str]:
    if guard.condition is None:
        return set()
    segments = {s for read in guard.condition.reads for s in _SEGMENT.findall(read)}
    strings = {c.right.literal for c in guard.condition.comparisons
               if c.right is not None and isinstance(c.right.literal, str)}
    return (segments | strings) & (_POLICY_FIELDS | _LIFECYCLE_FIELDS)


def _hands_item(ctx: CheckContext, file: FileIR, call: Call, decision_id: str,
                projected: bool) -> bool:
    """The call gets a selected item whole: a plain name carrying the selection (`item`, not
    `item.action[…]`), unless the actions were split from their items."""
    if projected:
        return False
    values: list[Value] = [*call.args, *(v for _, v in call.kwargs)]
    return any(value.kind is ValueKind.NAME and value.ref is not None and
               value.ref.isidentifier() and
               decision_id in ctx.facts.authority.path_labels(file, call.scope, value.ref)
               for value in values)


def _projection(ctx: CheckContext, decision: Site) -> str | None:
    """A projection of the decision's selection onto its actions, in the decision's file."""
    file = ctx.index.by_path.get(decision.location.file)
    if file is None:
        return None
    values = [a.value for a in file.assignments] + \
        [r.value for r in file.returns if r.value is not None] + \
        [v for c in file.calls for v in c.args]
    for value in values:
        if value.kind in (ValueKind.OTHER, ValueKind.CALL) and _SELECTED.search(value.text) \
                and _ACTION.search(value.text) and \
                not (set(_SEGMENT.findall(value.text)) & (_POLICY_FIELDS | _LIFECYCLE_FIELDS)):
            return value.text
    return None
