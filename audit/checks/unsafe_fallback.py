"""UNSAFE-FALLBACK: when the control call fails or selects nothing, the effect runs anyway.

Seed 000, "Control failures to test": "Unsafe fallback: Memrail is unavailable and execution
falls back to model authority"; Python SDK, "Handle selected actions": "Catching every
exception and continuing with the model proposal defeats the control boundary". Two shapes:
- an executor reached from the `except` handler of a `try` around a decision or approval call
  (a FALLBACK site), when what runs there is the model's proposal (the chain carries model
  output) or the very effect the control call governs elsewhere (same callee);
- an executor carrying model output under a guard that holds when the control call came back
  empty: `if not decision.selected:`, the `else:` of `if decision.selected:`,
  `if decision is None:`, `len(decision.selected) == 0`.
A handler that reaches the executor only through another decision or a human approval routes
the proposal to a human, the documented safe default, and is not reported.

A third shape is H4's negative-polarity verdict (other-systems.md §4.5): the executor runs
unless a handoff verdict or a model's verdict equals a refusal — `if verdict == "block":
return`, `if verdict != "reject": refund()` — so a timeout (`None`), an error string or any
unforeseen answer falls through to the effect. Only an explicit approval should let it run.

A fourth: a stream that reports a provider failure as a terminal event (MemoRizz `run_stream`,
seed 002 M11), consumed by a loop that never tests a chunk for it (`_streams`); and memory
tools handed to a model without the prompt block that carries their policy (MemexAI, seed 003
X1: `_prompt_block`), medium; and the tool router switched off for more tools than a small
set (MemoRizz `ContextPolicy(progressive_tool_disclosure=False)`, M4: `_tool_exposure`), medium.

A fifth: a permission the handler leaves granted (issue #14), `allowed = True; try: allowed =
bool(decide(...).selected) except: pass; if allowed: effect`, or a predicate helper whose
handler answers yes (`_flag_fallbacks`): reported at the permissive assignment or `return`.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.flow.dataflow import Flow, Seeds, propagate
from topo.analyzers.ir import Comparison, Guard, GuardKind, ValueKind
from topo.audit import codes
from topo.audit.checks._evidence import call_symbol, control_text, executor_text, locations, site_of
from topo.audit.graph.chains import Chain, Hop
from topo.audit.checks._registry import (CheckContext, check, executor_severity,
                                         severity_for)
from topo.audit.checks._selection import CONTROLS, empty_selection_hop
from topo.audit.checks._flag_fallbacks import FlagFallback, FlagIndex, flag_fallbacks
from topo.audit.checks._prompt_block import tools_without_prompt_block
from topo.audit.checks._streams import unchecked_streams
from topo.audit.checks._tool_exposure import oversized_direct_exposure
from topo.audit.graph.build import INFERRED, KIND, sites_of_kind
from topo.analyzers.model import EdgeKind, Site, SiteKind
from topo.audit.model import Finding, Severity

__all__ = ["unsafe_fallback"]


@check(codes.UNSAFE_FALLBACK)
def unsafe_fallback(ctx: CheckContext) -> Iterator[Finding]:
    fallbacks = {(s.location.file, s.location.line, s.location.column): s
                 for s in sites_of_kind(ctx.graph, SiteKind.FALLBACK)}
    controls = {s.id: s for s in sites_of_kind(ctx.graph, *CONTROLS)}
    yield from _negative_verdicts(ctx)
    yield from _stream_errors(ctx)
    yield from _missing_prompt_blocks(ctx)
    yield from _direct_exposure(ctx)
    if not controls:
        return
    reported: set[tuple[str, str]] = set()
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            found = _handler_hop(ctx, chain, fallbacks, controls) or \
                _empty_branch_hop(ctx, chain, controls)
            if found is None or (found[0].call.id, executor.id) in reported:
                continue
            hop, control, fallback = found
            reported.add((hop.call.id, executor.id))
            yield _finding(ctx, chain, hop, control, fallback)
    yield from _handler_dispatches(ctx, fallbacks, controls, {call for call, _ in reported})
    yield from _flags(ctx, fallbacks, controls)


_EXCLUDING = frozenset({"==", "in"})        # the guarded code runs when these do *not* hold
_INCLUDING = frozenset({"!=", "not in"})
_BRANCHES = (GuardKind.IF, GuardKind.TERNARY, GuardKind.BOOL_OP)


def _flags(ctx: CheckContext, fallbacks: dict, controls: dict[str, Site]) -> Iterator[Finding]:
    """A permission that a failed control call leaves granted: a flag initialised (or set in
    the handler) to a value the effect's guard passes, or a predicate helper answering yes
    from its handler (`_flag_fallbacks`)."""
    reported: set[tuple[str, str]] = set()
    index = FlagIndex(ctx, controls, fallbacks)
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            for found in flag_fallbacks(index, chain):
                key = (str(found.where), executor.id)
                if key not in reported:
                    reported.add(key)
                    yield _flag_finding(ctx, chain, found)


_FLAG_SHAPES = {
    "initial": "leaves `{flag}` at its initial `{value}`",
    "handler": "sets `{flag}` to `{value}`",
    "helper": "answers `{value}` for `{flag}`",
}


def _flag_finding(ctx: CheckContext, chain: Chain, found: FlagFallback) -> Finding:
    executor = chain.executor
    condition = found.guard.condition.text if found.guard.condition else found.flag
    what = _FLAG_SHAPES[found.shape].format(flag=found.flag, value=found.value)
    path = tuple(dict.fromkeys((*chain.origins, found.control.id,
                                *((found.fallback.id,) if found.fallback else ()),
                                executor.id)))
    return ctx.finding(
        codes.UNSAFE_FALLBACK, location=found.where, symbol=found.symbol,
        message=f"when {control_text(found.control)} raises, its `except` handler {what}, "
                f"so {_guard_effect(found, condition)} {executor_text(executor)}: the "
                "failure grants the permission",
        snippet=f"{found.flag} = {found.value}", path=path,
        related=(*locations(ctx, path[:-1]), found.hop.call.location),
        severity=executor_severity(codes.UNSAFE_FALLBACK, executor))


def _guard_effect(found: FlagFallback, condition: str) -> str:
    if found.guard.kind is GuardKind.EARLY_EXIT:
        return f"the early exit on `{condition}` does not stop"
    return f"`{condition}` still holds and runs" if found.guard.polarity else \
        f"`{condition}` still fails and runs"


def _direct_exposure(ctx: CheckContext) -> Iterator[Finding]:
    for switch, count in oversized_direct_exposure(ctx):
        yield ctx.finding(
            codes.UNSAFE_FALLBACK, location=switch.location, symbol=switch.symbol,
            message=f"`{switch.attr('callee')}` turns progressive tool disclosure off for "
                    f"{count} tools (a small set is at most {switch.attr('exposure_limit')}): "
                    "the model sees every schema, without per-turn scoping or allowlisted "
                    "invocation",
            severity=Severity.MEDIUM)


def _missing_prompt_blocks(ctx: CheckContext) -> Iterator[Finding]:
    for model, toolset in tools_without_prompt_block(ctx):
        yield ctx.finding(
            codes.UNSAFE_FALLBACK, location=model.location, symbol=model.symbol,
            message=f"`{model.attr('callee')}` gets the memory tools of "
                    f"`{toolset.attr('callee')}` without the prompt block: the model reads and "
                    "writes memory with none of the shared/** policy those tools assume",
            related=(toolset.location,), severity=Severity.MEDIUM)


def _stream_errors(ctx: CheckContext) -> Iterator[Finding]:
    for site, loop in unchecked_streams(ctx):
        yield ctx.finding(
            codes.UNSAFE_FALLBACK, location=site.location, symbol=site.symbol,
            message=f"the loop over `{site.attr('callee')}` (line {loop.location.line}) never "
                    "tests a chunk for the stream's terminal error event, and the stream does "
                    "not raise: a provider failure reads as a finished answer",
            related=(loop.location,), severity=Severity.HIGH)


def _negative_verdicts(ctx: CheckContext) -> Iterator[Finding]:
    """Executors that run whenever a handoff or model verdict is *not* a refusal literal."""
    handoffs = {str(s.attr("call")): s for s in ctx.facts.sites
                if s.kind is SiteKind.APPROVAL_GATE and s.attr("operation") == "handoff"}
    flows: list[tuple[str, Flow]] = [("model output", ctx.facts.model)]
    if handoffs:
        flows.insert(0, ("the handoff verdict", propagate(
            ctx.facts.files, ctx.facts.graph,
            Seeds(calls={c: frozenset({s.id}) for c, s in handoffs.items()}),
            ctx.facts.flow_index)))
    reported: set[str] = set()
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            for hop in chain.hops:
                for guard in hop.call.guards:
                    found = _negative_test(hop, guard, flows)
                    if found is None or str(found[1].location) in reported:
                        continue
                    reported.add(str(found[1].location))
                    what, comparison = found
                    yield ctx.finding(
                        codes.UNSAFE_FALLBACK, location=comparison.location,
                        symbol=call_symbol(hop.file, hop.call),
                        message=f"{executor_text(executor)} runs unless {what} "
                                f"`{comparison.left.text}` {_refusal(comparison)}: a timeout "
                                f"(`None`) or any unforeseen answer falls through to the "
                                f"effect; allow only an explicit approval",
                        snippet=comparison.left.text, path=(executor.id,),
                        severity=executor_severity(codes.UNSAFE_FALLBACK, executor))


def _negative_test(hop: Hop, guard: Guard, flows: list[tuple[str, Flow]]
                   ) -> tuple[str, Comparison] | None:
    """The verdict comparison a guard lets the hop through on *inequality*, if every test of
    that verdict in the condition does so and the condition is not a conjunction."""
    condition = guard.condition
    if condition is None or " and " in condition.text or "&&" in condition.text:
        return None
    if guard.kind is GuardKind.EARLY_EXIT:
        negative_ops = _EXCLUDING
    elif guard.kind in _BRANCHES:
        negative_ops = _INCLUDING if guard.polarity else _EXCLUDING
    else:
        return None
    for what, flow in flows:
        tests = [c for c in condition.comparisons
                 if flow.value_labels(hop.file, hop.call.scope, c.left)]
        verdicts = [c for c in tests if _literal_right(c)]
        if verdicts and all(c.op in negative_ops for c in verdicts) and \
                all(c in verdicts or c.op in ("is", "is not", "falsy", "truthy") for c in tests):
            return what, verdicts[0]
    return None


def _literal_right(comparison: Comparison) -> bool:
    right = comparison.right
    if right is None or comparison.op not in _EXCLUDING | _INCLUDING:
        return False
    if right.kind is ValueKind.STRING:
        return True
    return right.kind is ValueKind.LIST and bool(right.entries) and all(e.kind is ValueKind.STRING for _, e in right.entries)


def _refusal(comparison: Comparison) -> str:
    right = comparison.right.text if comparison.right is not None else ""
    return f"is {right}" if comparison.op in ("==", "!=") else f"is one of {right}"


def _handler_dispatches(ctx: CheckContext, fallbacks: dict, controls: dict[str, Site],
                        reported: set[str]) -> Iterator[Finding]:
    """A dispatch on model output (`TOOLS[name](**args)`) in a handler, whose targets the
    analysis cannot follow to an executor: the model still picks what runs."""
    for dispatcher in sites_of_kind(ctx.graph, SiteKind.DISPATCHER):
        found = ctx.calls.get(str(dispatcher.attr("call")))
        if found is None or found[1].id in reported:
            continue
        for fallback, failed in _handlers(found[1].guards, fallbacks, controls):
            path = (*(dispatcher.attr("origins") or ()), failed[0].id, fallback.id,
                    dispatcher.id)
            yield ctx.finding(
                codes.UNSAFE_FALLBACK, location=dispatcher.location, symbol=dispatcher.symbol,
                message=f"the `except` handler of {control_text(failed[0])} dispatches the "
                        f"model's choice through `{dispatcher.attr('function')}`",
                snippet=str(dispatcher.attr("function")), path=path,
                related=locations(ctx, path[:-1]), inferred=True,
                severity=severity_for(codes.UNSAFE_FALLBACK, None))   # targets unknown
            break


def _handler_hop(ctx: CheckContext, chain: Chain, fallbacks: dict,
                 controls: dict[str, Site]) -> tuple[Hop, Site, Site | None] | None:
    """The hop made inside the `except` handler of a failed control call, when what it runs
    is the model's proposal or the effect the control call governs."""
    for hop in chain.hops:
        for fallback, failed in _handlers(hop.call.guards, fallbacks, controls):
            others = [e for e in chain.enforced_by if e in controls
                      and e not in {s.id for s in failed}]
            if not others and (chain.influenced or _governs_same_effect(
                    ctx, failed, chain.executor)):
                return hop, failed[0], fallback
    return None


def _handlers(guards: tuple[Guard, ...], fallbacks: dict, controls: dict[str, Site]
              ) -> Iterator[tuple[Site, list[Site]]]:
    """The FALLBACK sites among `except` guards, each with the control calls that failed."""
    for guard in guards:
        place = (guard.location.file, guard.location.line, guard.location.column)
        fallback = fallbacks.get(place) if guard.kind is GuardKind.EXCEPT else None
        failed = [] if fallback is None else [
            s for s in controls.values() if s.attr("call") in (fallback.attr("controls") or ())]
        if fallback is not None and failed:
            yield fallback, failed


def _governs_same_effect(ctx: CheckContext, failed: list[Site], executor: Site) -> bool:
    """Whether a failed control call guards, elsewhere, an executor with the same callee."""
    for control in failed:
        for _, target, data in ctx.graph.out_edges(control.id, data=True):
            other = site_of(ctx, target) if data.get(KIND) == EdgeKind.AUTHORITY.value else None
            if other is not None and other.attr("callee") == executor.attr("callee"):
                return True
    return False


def _empty_branch_hop(ctx: CheckContext, chain: Chain,
                      controls: dict[str, Site]) -> tuple[Hop, Site, None] | None:
    """The hop run when a control call selected nothing, if the chain carries model output."""
    found = empty_selection_hop(ctx, chain, controls) if chain.influenced else None
    return None if found is None else (*found, None)


def _finding(ctx: CheckContext, chain: Chain, hop: Hop, control: Site,
             fallback: Site | None) -> Finding:
    executor = chain.executor
    how = "the `except` handler of" if fallback is not None else "an empty selection of"
    through = site_of(ctx, hop.dispatcher).attr("function") if hop.dispatcher and \
        site_of(ctx, hop.dispatcher) else hop.call.name
    via = "" if hop is chain.hops[-1] else f" through `{through}`"
    path = tuple(dict.fromkeys((*chain.origins, control.id,
                                *((fallback.id,) if fallback else ()), executor.id)))
    return ctx.finding(
        codes.UNSAFE_FALLBACK, location=hop.call.location, symbol=call_symbol(hop.file, hop.call),
        message=f"{how} {control_text(control)} runs {executor_text(executor)}{via}",
        snippet=str(executor.attr("callee") or executor.symbol), path=path,
        related=locations(ctx, path[:-1]),
        severity=executor_severity(codes.UNSAFE_FALLBACK, executor),
        inferred=any(ctx.graph.nodes[s].get(INFERRED) for s in path if s in ctx.graph))
