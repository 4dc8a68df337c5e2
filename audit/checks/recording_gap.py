"""RECORDING-GAP: a Memrail-governed effect whose outcome is never recorded after it happens.

Seed 000, "Pattern 5: record the outcome" and "Integration invariants": "Emit success events
after material outcomes, not after selection … ACK only after the intended outcome"; "Control
failures to test": "No outcome event: selection is recorded, but completion and failure cannot
be distinguished". Without the event, `NOT event…` guards (duplicate protection) read absence
as permission; without the ACK, ACK-gated cooldowns never start.

Only executors a Memrail decision governs (its result guards or feeds a call on the chain) or
that sit in a Memrail-registered tool are checked, so that plain apps are not flooded. The
outcome counts as recorded when an event emit or ack follows the executor on the success path
(not in an `except` handler) in the same function, or follows the call that leads to it in a
caller; for a registered tool run by the SDK, when a `decide_and_execute(…, auto_ack=True)`
runs it or a record follows that call. A record only *before* the effect is reported as such.
An effect under a branch taken when the decision selected nothing is not governed by it
(UNSAFE-FALLBACK's concern) and is not reported here.

A record that runs whether or not the effect succeeded does not record the outcome either
(seed 000: "ACK only after the intended outcome"; "confirm a producer runs after the material
outcome"): one in a `finally`, or one after a `try` around the effect (or the call leading to
it) whose handler swallows the failure (does not end by raising, returning or leaving the
loop). Such a record is reported as recorded regardless of success.

An event stamped with a time that carries no zone is not a usable record either (seed 000:
"confirm timestamps are timezone-aware"; the SDK's `event()` takes `ts` as UTC-aware and
raises otherwise, and a local wall time moves the event against every `IN '…'` window). Every
event builder or emit whose timestamp the rule pack reads as `naive` is reported, governed or
not: the event feeds triggers whichever code emits it.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.ir import Guard, GuardKind
from topo.audit import codes
from topo.audit.checks._evidence import (call_symbol, callee_text, control_text, executor_text,
                                         locations)
from topo.audit.checks._integration import MEMRAIL
from topo.audit.graph.chains import Chain, Hop
from topo.audit.checks._registry import CheckContext, check, executor_severity
from topo.audit.checks._selection import CONTROLS, empty_selection_hop
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Site, SiteKind
from topo.audit.model import Finding

__all__ = ["recording_gap"]

_GOVERNORS = (SiteKind.DECISION_CALL, SiteKind.TOOL_REGISTRATION, SiteKind.ACTION_HANDLER)


@check(codes.RECORDING_GAP)
def recording_gap(ctx: CheckContext) -> Iterator[Finding]:
    yield from _naive_timestamps(ctx)
    yield from _unrecorded_outcomes(ctx)


def _naive_timestamps(ctx: CheckContext) -> Iterator[Finding]:
    for site in sites_of_kind(ctx.graph, SiteKind.ATOM, SiteKind.EVENT_EMIT):
        if site.attr("timestamp_zone") != "naive":
            continue
        name = site.attr("key") if site.kind is SiteKind.ATOM else site.attr("event_name")
        shown = f"`{name}`" if isinstance(name, str) else "an event"
        stamp = str(site.attr("timestamp") or "")
        yield ctx.finding(
            codes.RECORDING_GAP, location=site.location, symbol=site.symbol, snippet=stamp,
            message=f"{shown} is stamped with `{stamp}`, a time without its zone: event times "
                    "must be timezone-aware UTC (the SDK rejects a naive one, and a local time "
                    "moves the event against `IN '…'` windows)",
            inferred=site.inferred)


def _unrecorded_outcomes(ctx: CheckContext) -> Iterator[Finding]:
    governors = {s.id: s for s in sites_of_kind(ctx.graph, *_GOVERNORS) if s.system == MEMRAIL}
    if not governors:
        return
    recorders = [r for r in sites_of_kind(ctx.graph, SiteKind.EVENT_EMIT, SiteKind.ACK)
                 if not _on_error_path(ctx, r)]
    sdk = [s for s in governors.values() if s.kind is SiteKind.DECISION_CALL and
           s.attr("executes") is True]
    sdk_records = any(s.attr("auto_ack") is True or _after(ctx, s, recorders) for s in sdk)
    controls = {s.id: s for s in sites_of_kind(ctx.graph, *CONTROLS)}
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            governor = next((governors[e] for e in chain.enforced_by if e in governors), None)
            if governor is None or empty_selection_hop(ctx, chain, controls) is not None:
                continue
            on_success, regardless = _after_effect(ctx, chain, recorders)
            if on_success:
                continue
            if governor.kind is not SiteKind.DECISION_CALL and (sdk_records or not sdk):
                continue    # run by the SDK: recorded there, or no SDK call to judge
            yield _finding(ctx, chain, governor, recorders, regardless)
            break


def _on_error_path(ctx: CheckContext, recorder: Site) -> bool:
    found = ctx.calls.get(str(recorder.attr("call")))
    return found is not None and any(g.kind is GuardKind.EXCEPT for g in found[1].guards)


def _after_effect(ctx: CheckContext, chain: Chain, recorders: list[Site]
                  ) -> tuple[list[Site], list[tuple[Site, str]]]:
    """The records after a hop of the chain that run only when it succeeded, and those that
    run regardless, each with why (`in a finally`, `after an except that swallows …`)."""
    on_success: list[Site] = []
    regardless: list[tuple[Site, str]] = []
    for hop in chain.hops:
        swallowing = _swallowing_tries(hop)
        for record in _after_hop(hop, recorders):
            guards = _guards(ctx, record)
            why = _regardless(guards, swallowing, hop.call.guards)
            if why is None:
                on_success.append(record)
            else:
                regardless.append((record, why))
    return on_success, regardless


def _swallowing_tries(hop: Hop) -> list[Guard]:
    """The TRY guards around the hop's call with a handler for it that falls through: after
    that `try`, the code runs whether the call failed or not. A handler belongs to the
    outermost `try` around the call that does not also enclose the handler."""
    tries = [g for g in hop.call.guards if g.kind is GuardKind.TRY]
    found: list[Guard] = []
    for block in hop.file.blocks:
        handler = block.guard
        if handler.kind is not GuardKind.EXCEPT or hop.call.id not in handler.try_calls \
                or handler.exits is not None:
            continue
        owner = next((t for t in tries if t not in block.guards), None)
        if owner is not None and owner not in found:
            found.append(owner)
    return found


def _regardless(guards: tuple[Guard, ...], swallowing: list[Guard],
                effect: tuple[Guard, ...]) -> str | None:
    """Why a record after the effect runs whatever the effect did, or None."""
    if any(_finally_of(guards[:at], guard, effect) for at, guard in enumerate(guards)
           if guard.kind is GuardKind.FINALLY):
        return "in a `finally`"
    if any(t not in guards for t in swallowing):
        return "after a `try` whose handler swallows the failure"
    return None


def _finally_of(outer: tuple[Guard, ...], clause: Guard, effect: tuple[Guard, ...]) -> bool:
    """Whether the `finally` clause (under the guards `outer`) closes a `try` around the
    effect: a TRY of the effect at the same nesting (the same guards outside it), starting
    before the clause. A `finally` of an unrelated later `try` runs only once the effect
    succeeded."""
    return any(guard.kind is GuardKind.TRY and effect[:at] == outer
               and guard.location < clause.location for at, guard in enumerate(effect))


def _guards(ctx: CheckContext, site: Site) -> tuple[Guard, ...]:
    found = ctx.calls.get(str(site.attr("call")))
    return () if found is None else found[1].guards


def _after_hop(hop: Hop, recorders: list[Site]) -> list[Site]:
    symbol = call_symbol(hop.file, hop.call)
    where = hop.call.location
    return [r for r in recorders if r.symbol == symbol and r.location.file == where.file
            and (r.location.line, r.location.column) > (where.line, where.column)]


def _after(ctx: CheckContext, site: Site, recorders: list[Site]) -> bool:
    found = ctx.calls.get(str(site.attr("call")))
    return found is not None and bool(_after_hop(Hop(*found), recorders))


def _before(chain: Chain, recorders: list[Site]) -> list[Site]:
    found = []
    for hop in chain.hops:
        where = hop.call.location
        found += [r for r in recorders if r.symbol == call_symbol(hop.file, hop.call)
                  and r.location.file == where.file and r.location.line < where.line]
    return found


def _finding(ctx: CheckContext, chain: Chain, governor: Site, recorders: list[Site],
             regardless: list[tuple[Site, str]]) -> Finding:
    executor = chain.executor
    governed = control_text(governor) if governor.kind is SiteKind.DECISION_CALL else \
        f"the Memrail tool `{governor.attr('tool_name') or governor.symbol}`"
    earlier = sorted(_before(chain, recorders), key=lambda r: r.location)
    if regardless:
        first, why = min(regardless, key=lambda pair: pair[0].location)
        earlier = [first]
        message = f"the outcome of {executor_text(executor)}, governed by {governed}, is " \
                  f"recorded regardless of its success (`{_record_text(first)}` {why})"
    elif earlier:
        message = f"the outcome of {executor_text(executor)}, governed by {governed}, is " \
                  f"recorded before it runs (`{_record_text(earlier[0])}`), not after"
    else:
        message = f"{executor_text(executor)}, governed by {governed}, has no outcome event " \
                  f"or ack after it"
    path = (governor.id, *(r.id for r in earlier[:1]), executor.id)
    return ctx.finding(
        codes.RECORDING_GAP, location=executor.location, symbol=executor.symbol,
        message=message, snippet=str(executor.attr("callee") or executor.symbol), path=path,
        related=locations(ctx, path[:-1]),
        severity=executor_severity(codes.RECORDING_GAP, executor))


def _record_text(record: Site) -> str:
    return str((record.kind.declares("event_name") and record.attr("event_name"))
               or callee_text(record))
