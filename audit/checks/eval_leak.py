"""EVAL-LEAK: a dry-run (evaluation-only) selection still reaches a live executor.

Seed 000, "Integration invariants": "Dry run can return action payloads, but they must not
reach handlers or live prompts. The combined SDK execution helpers skip handlers and ACK
automatically; custom dispatchers need the same guard." So `decide_and_execute(…,
dry_run=True)` running registered tools is safe (the SDK skips them), while custom code that
executes what a dry-run decision selected is not.

A decision is a dry run when its options say `dry_run=True` (literally, or through a name
bound once to a literal). When the flag is computed (`dry_run=evaluation_only`), the leak is
reported only when the executor's chain provably ignores it: no guard on the chain reads the
flag's variables and no call on the chain passes them on. An executor is reached by the
selection when the decision's result guards a call on its chain or flows into its arguments
(the chain's `enforced_by`), or when a dispatcher runs on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.ir import FileIR, Return, Value, ValueKind
from topo.analyzers.paths import root_of
from topo.audit import codes
from topo.audit.checks._evidence import call_symbol, control_text, executor_text, locations
from topo.audit.graph.chains import Chain, Hop
from topo.audit.checks._live_selection import unguarded_live_uses
from topo.audit.checks._registry import CheckContext, check
from topo.audit.checks._selection import empty_selection_hop
from topo.audit.checks._values import Bound, bound, option
from topo.audit.graph.build import INFERRED, sites_of_kind
from topo.analyzers.model import Site, SiteKind
from topo.audit.model import Finding

__all__ = ["eval_leak"]


@dataclass(frozen=True, slots=True)
class _DryRun:
    decision: Site
    flag: frozenset[str]       # variables of a computed flag; empty when literally True


@check(codes.EVAL_LEAK)
def eval_leak(ctx: CheckContext) -> Iterator[Finding]:
    yield from _live(ctx)
    yield from _live_shadow(ctx)
    yield from _open_cohort(ctx)
    dry_runs = {d.decision.id: d for d in _dry_runs(ctx)}
    if not dry_runs:
        return
    places = set()
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            leaked = [dry_runs[e] for e in chain.enforced_by if e in dry_runs
                      and _ignores_flag(ctx, chain, dry_runs[e])
                      and not _on_empty_selection(ctx, chain, dry_runs[e])]
            if leaked:
                finding = _finding(ctx, chain, leaked[0])
                places.add(finding.location)
                yield finding
                break
    yield from _dispatched(ctx, dry_runs, places)


def _live(ctx: CheckContext) -> Iterator[Finding]:
    """Live selections run without the SDK executor's mode and lifecycle tests
    (`_live_selection`)."""
    for use in unguarded_live_uses(ctx):
        yield ctx.finding(
            codes.EVAL_LEAK, location=use.location, symbol=use.symbol,
            message=f"the selection of {control_text(use.decision)} reaches {use.effect}: "
                    f"{'; '.join(use.reasons)}",
            snippet=use.effect, path=use.path, related=locations(ctx, use.path[:1]),
            inferred=True)


def _live_shadow(ctx: CheckContext) -> Iterator[Finding]:
    """An executor configured to run shadow selections for real ("execute and compare"): the
    packs' `[[live_shadow]]` calls with a live mode. Shadow EMUs are under evaluation; the
    seed's contract keeps them out of `selected` ("Shadow candidates have separate
    arbitration, appear in traces, and never enter `selected`")."""
    shadows = sorted(e.emu_key for e in ctx.emus if e.state == "shadow")
    for file in ctx.facts.files:
        for call in file.calls:
            mode = ctx.facts.knowledge.live_shadow_mode(call)
            if mode is None:
                continue
            which = (f": shadow EMU {', '.join(f'`{k}`' for k in shadows)} would act"
                     if shadows else "")
            yield ctx.finding(
                codes.EVAL_LEAK, location=call.location, symbol=call_symbol(file, call),
                message=f"`{call.name}({mode})` makes the executor run shadow selections "
                        f"for real, beside the live ones, instead of only comparing{which}",
                snippet=f"{call.name}({mode})")


def _open_cohort(ctx: CheckContext) -> Iterator[Finding]:
    """A canary cohort decision that admits everyone (`decider=lambda *_: True`, a function
    that only returns `True`): "Canary is a lifecycle state, not a traffic percentage: the
    application must supply affirmative cohort membership", and this supplies it for all."""
    canaries = sorted(e.emu_key for e in ctx.emus if e.state == "canary")
    for file in ctx.facts.files:
        for call in file.calls:
            decider = ctx.facts.knowledge.canary_decider(call)
            if decider is None or not _admits_everyone(ctx, file, decider):
                continue
            which = (f": canary EMU {', '.join(f'`{k}`' for k in canaries)} runs for every "
                     f"request" if canaries else "")
            yield ctx.finding(
                codes.EVAL_LEAK, location=call.location, symbol=call_symbol(file, call),
                message=f"`{call.name}` installs a canary cohort decision that admits "
                        f"everyone (`{decider.text}`), so canary selections run like active "
                        f"ones{which}",
                snippet=f"{call.name}({decider.text})")


def _admits_everyone(ctx: CheckContext, file: FileIR, decider: Value) -> bool:
    """A literal `True`, or a function (lambda, arrow, named) whose every return is `True`."""
    if decider.kind is ValueKind.BOOL:
        return decider.literal is True
    if decider.kind is ValueKind.LAMBDA and decider.ref:
        returns = [r for r in file.returns if r.scope == decider.ref]
        if not returns:      # a Python lambda's body is an expression, not a return
            return decider.text.rsplit(":", 1)[-1].strip() == "True"
        return _all_true(returns)
    if decider.kind is ValueKind.NAME and decider.ref:
        for holder in ctx.facts.files:
            for definition in holder.definitions:
                if (definition.qualname == decider.ref and holder is file) or \
                        function_key(holder, definition.qualname) == decider.resolved:
                    return _all_true([r for r in holder.returns
                                      if r.scope == definition.qualname])
    return False


def _all_true(returns: list[Return]) -> bool:
    return bool(returns) and all(r.value is not None and r.value.kind is ValueKind.BOOL and
                                 r.value.literal is True for r in returns)


def _dispatched(ctx: CheckContext, dry_runs: dict[str, _DryRun],
                reported: set) -> Iterator[Finding]:
    """Dispatchers (`HANDLERS[name](...)`) that run on a literal dry run's selection, when
    no executor behind them was reported at the same call."""
    for dispatcher in sites_of_kind(ctx.graph, SiteKind.DISPATCHER):
        if dispatcher.location in reported:
            continue
        found = ctx.calls.get(str(dispatcher.attr("call")))
        labels = ctx.facts.authority.argument_labels(*found) if found else frozenset()
        for decision_id in sorted(labels & dry_runs.keys()):
            if dry_runs[decision_id].flag:
                continue
            decision = dry_runs[decision_id].decision
            yield ctx.finding(
                codes.EVAL_LEAK, location=dispatcher.location, symbol=dispatcher.symbol,
                message=f"the dry-run selection of {control_text(decision)} is dispatched by "
                        f"`{dispatcher.attr('function')}`",
                snippet=str(dispatcher.attr("function")), path=(decision_id, dispatcher.id),
                related=locations(ctx, (decision_id,)), inferred=True)


def _dry_runs(ctx: CheckContext) -> Iterator[_DryRun]:
    for decision in sites_of_kind(ctx.graph, SiteKind.DECISION_CALL):
        if decision.attr("dry_run") is True:
            yield _DryRun(decision, frozenset())
        elif decision.attr("dry_run_literal") is False:
            found = ctx.calls.get(str(decision.attr("call")))
            flag = option(ctx, *found, "dry_run") if found else None
            if flag is not None:
                yield from _computed(ctx, decision, flag)


def _computed(ctx: CheckContext, decision: Site, flag: Bound) -> Iterator[_DryRun]:
    value = bound(ctx, flag).value
    if value.kind is ValueKind.BOOL:
        if value.literal is True:
            yield _DryRun(decision, frozenset())
        return
    names = frozenset(root_of(read) for read in flag.value.reads)
    if names:
        yield _DryRun(decision, names)


def _ignores_flag(ctx: CheckContext, chain: Chain, dry_run: _DryRun) -> bool:
    """A literal dry run always leaks; a computed flag leaks when nothing on the chain reads
    or forwards it."""
    if not dry_run.flag:
        return True
    for hop in chain.hops:
        reads = {root_of(r) for g in hop.call.guards if g.condition for r in g.condition.reads}
        passed = {root_of(r) for v in (*hop.call.args, *(v for _, v in hop.call.kwargs))
                  for r in v.reads}
        if (reads | passed) & dry_run.flag:
            return False
    return True


def _on_empty_selection(ctx: CheckContext, chain: Chain, dry_run: _DryRun) -> bool:
    """An effect run when the dry run selected nothing is not driven by its selection."""
    controls = {dry_run.decision.id: dry_run.decision}
    return empty_selection_hop(ctx, chain, controls) is not None


def _finding(ctx: CheckContext, chain: Chain, dry_run: _DryRun) -> Finding:
    hop = _using_hop(ctx, chain, dry_run.decision.id)
    executor = chain.executor
    flag = "" if not dry_run.flag else \
        f" without testing `{'`, `'.join(sorted(dry_run.flag))}`"
    path = tuple(dict.fromkeys((dry_run.decision.id, *chain.path)))
    return ctx.finding(
        codes.EVAL_LEAK, location=hop.call.location, symbol=call_symbol(hop.file, hop.call),
        message=f"the dry-run selection of {control_text(dry_run.decision)} reaches "
                f"{executor_text(executor)}{flag}",
        snippet=str(executor.attr("callee") or executor.symbol), path=path,
        related=locations(ctx, path[:-1]),
        inferred=any(ctx.graph.nodes[s].get(INFERRED) for s in path if s in ctx.graph))


def _using_hop(ctx: CheckContext, chain: Chain, decision_id: str) -> Hop:
    """The first call on the chain that the decision's result guards or feeds: where the
    selection is put to use."""
    authority = ctx.facts.authority
    for hop in chain.hops:
        guarded = any(decision_id in authority.condition_labels(hop.file, hop.call.scope,
                                                                g.condition)
                      for g in hop.call.guards if g.condition is not None)
        if guarded or decision_id in authority.argument_labels(hop.file, hop.call):
            return hop
    return chain.hops[-1]
