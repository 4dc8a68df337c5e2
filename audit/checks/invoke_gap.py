"""INVOKE-GAP: a decision point that nothing invokes, or a registered tool reached around it.

Seed 000, "Audit an application's decision topology": an *invoke gap* is "a consequential path
[that] never reaches the decision point". It shows in two ways:
- an EMU bound to a point that no code names in a decision call: the policy can never be
  selected, whatever its trigger says; likewise an EMU bound to no point when every decision
  call names one (only an unnamed call selects unbound EMUs);
- a Memrail-registered tool whose handler moves money (or sends, deletes…) and that code also
  calls directly, on a chain where no decision at the tool's point guards the call: the
  registration suggests "runs only when selected", the direct call makes that untrue;
- more generally, a bypass: an effect one entry reaches only through a decision or a human
  approval, and another entry (a nightly job, a script) reaches with neither.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.flow.entrypoints import entry_of
from topo.analyzers.flow.roles import function_node
from topo.audit import codes
from topo.audit.checks._integration import (calls_by_point, decision_calls, emu_tool_id,
                                            has_app_code, literal_point, memrail_tools,
                                            partial_code)
from topo.audit.checks._registry import CheckContext, check, severity_for
from topo.audit.graph.build import callers, sites_of_kind
from topo.audit.graph.chains import Chain
from topo.analyzers.model import EdgeKind, Site, SiteKind
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["invoke_gap"]


@check(codes.INVOKE_GAP)
def invoke_gap(ctx: CheckContext) -> Iterator[Finding]:
    if not has_app_code(ctx):
        return
    yield from _uninvoked_emus(ctx)
    yield from _bypassed_tools(ctx)
    yield from _bypassed_effects(ctx)


def _uninvoked_emus(ctx: CheckContext) -> Iterator[Finding]:
    # A decision call with a computed name may reach any point: claiming "nothing invokes it"
    # would be a guess (DYNAMIC-DECISION-POINT reports that call instead).
    if any(s.attr("decision_point_literal") is False for s in decision_calls(ctx)):
        return
    invoked = calls_by_point(ctx)
    # "It may be missing: an unnamed call selects EMUs with no binding" (memrail-facts).
    unnamed = any(s.attr("decision_point") is None for s in decision_calls(ctx))
    for emu in ctx.emus:
        point = emu.decision_point
        if not point and not unnamed:
            yield _unbound(ctx, emu)
        if not point or point in invoked:
            continue
        yield ctx.finding(
            codes.INVOKE_GAP, location=emu.location, symbol=emu.label, emu_key=emu.emu_key,
            message=f"EMU `{emu.label}` is bound to decision point `{point}`, which no "
                    f"decision call in the code invokes",
            snippet=f"decision_point {point}", inferred=partial_code(ctx))


def _unbound(ctx: CheckContext, emu: Emu) -> Finding:
    """An EMU bound to no point, where every decision call names one: named invocations select
    only EMUs bound to that exact point, so nothing ever evaluates it. An omitted binding
    (rather than an explicit null) may keep an earlier one on the server: then it is inferred."""
    return ctx.finding(
        codes.INVOKE_GAP, location=emu.location, symbol=emu.label, emu_key=emu.emu_key,
        message=f"EMU `{emu.label}` is bound to no decision point, and every decision call in "
                f"the code names one, so no call selects it",
        snippet="decision_point null",
        inferred=partial_code(ctx) or "decision_point" not in emu.raw)


def _bypassed_tools(ctx: CheckContext) -> Iterator[Finding]:
    for tool in memrail_tools(ctx):
        definition = tool.attr("definition")
        if not isinstance(definition, str) or not _executors(ctx, tool):
            continue
        points = _points_selecting(ctx, str(tool.attr("tool_name") or ""))
        for _, call_id in callers(ctx.graph, function_node(definition)):
            found = ctx.calls.get(call_id)
            if found is None:
                continue
            file, call = found
            stand_in = Site(id=f"call:{call.id}", kind=SiteKind.EXECUTOR, system="code",
                            language=file.language.value, location=call.location,
                            symbol=_symbol(file.module, call.scope), attrs=(("call", call.id),))
            if all(_passes_point(ctx, chain.enforced_by, points)
                   for chain in ctx.reach.of(stand_in)):
                continue
            where = f" (selected at {', '.join(f'`{p}`' for p in points)})" if points else ""
            yield ctx.finding(
                codes.INVOKE_GAP, location=call.location, symbol=stand_in.symbol,
                message=f"`{stand_in.symbol}` calls `{definition}`, the handler of Memrail tool "
                        f"`{tool.attr('tool_name')}`{where}, on a path that passes no decision "
                        f"at its decision point",
                snippet=call.name, related=(tool.location,), path=(tool.id,))


def _bypassed_effects(ctx: CheckContext) -> Iterator[Finding]:
    """An effect that one entry reaches only through a decision or a human approval, and
    another entry (a scheduled job, a script, an admin handler) reaches with neither: the
    second entry bypasses the control that governs the effect (seed 000's scope: "every
    consequential path reaches the named decision point"). A chain the model shapes is
    UNGOVERNED-PATH's; a chain cut at the hop limit has no known entry."""
    limit = ctx.config.max_path
    ways_in = entry_of(ctx.facts.sites)
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        chains = [c for c in ctx.reach.of(executor) if len(c.hops) <= limit]
        governing = {c.entry: _governing(ctx, c) for c in chains}
        governed = sorted(e for e, sites in governing.items() if sites)
        if not governed:
            continue
        seen: set[str] = set()
        for chain in chains:
            if chain.enforced_by or chain.influenced or chain.entry in seen:
                continue
            seen.add(chain.entry)
            controls = sorted({s for e in governed for s in governing[e]}, key=lambda s: s.id)
            first = sorted(governing[governed[0]], key=lambda s: s.id)[0]
            yield ctx.finding(
                codes.INVOKE_GAP, location=chain.hops[0].call.location,
                symbol=chain.entry.removeprefix("function:"),
                message=f"`{chain.entry.removeprefix('function:')}`{_kind_of(ways_in, chain)} "
                        f"reaches "
                        f"`{executor.attr('callee')}` ({executor.attr('tier')}) on a path that "
                        f"passes no decision or approval, while "
                        f"`{governed[0].removeprefix('function:')}` reaches it only through "
                        f"{_control_text(first)}",
                snippet=f"{chain.hops[0].call.name} -> {executor.attr('callee')}",
                related=tuple(s.location for s in controls), path=(executor.id,),
                severity=severity_for(codes.INVOKE_GAP, executor.attr("tier")))


def _kind_of(ways_in: dict[str, Site], chain: Chain) -> str:
    """` (scheduled job)`: how the bypassing entry starts, when an entry point says so."""
    site = ways_in.get(chain.entry.removeprefix("function:"))
    return f" ({str(site.attr('entry_kind')).replace('_', ' ')})" if site is not None else ""


def _governing(ctx: CheckContext, chain: Chain) -> list[Site]:
    """The decisions and human approvals among what enforces a chain."""
    found = []
    for site_id in chain.enforced_by:
        site = ctx.graph.nodes[site_id].get("site") if site_id in ctx.graph else None
        if site is None:
            continue
        if site.kind in (SiteKind.DECISION_CALL, SiteKind.APPROVAL_GATE) or (
                site.kind is SiteKind.TOOL_REGISTRATION
                and ctx.facts.knowledge.requires_approval(site)):
            found.append(site)
    return found


def _control_text(site: Site) -> str:
    if site.kind is SiteKind.DECISION_CALL:
        point = literal_point(site)
        return f"the decision at `{point}`" if point else "a decision"
    return "a human approval"


def _executors(ctx: CheckContext, tool: Site) -> list[str]:
    """The consequential executors the tool's handler reaches (execution edges)."""
    return [target for _, target, data in ctx.graph.out_edges(tool.id, data=True)
            if data.get("kind") == EdgeKind.EXECUTION.value and target.startswith("executor:")]


def _points_selecting(ctx: CheckContext, tool_name: str) -> tuple[str, ...]:
    """The decision points of the EMUs that select this tool."""
    points = {emu.decision_point for emu in ctx.emus
              if emu.decision_point and emu_tool_id(emu) == tool_name}
    return tuple(sorted(points))


def _passes_point(ctx: CheckContext, enforced_by: tuple[str, ...],
                  points: tuple[str, ...]) -> bool:
    """A chain passes the tool's decision point when a decision at that point (any Memrail
    decision, if no EMU names the tool) guards it, or when it starts in another registered
    Memrail tool (which itself runs only when selected)."""
    for site_id in enforced_by:
        site = ctx.graph.nodes[site_id].get("site") if site_id in ctx.graph else None
        if site is None:
            continue
        if site.kind is SiteKind.TOOL_REGISTRATION and ctx.facts.knowledge.governed(site):
            return True
        if site.kind is SiteKind.DECISION_CALL and (not points or literal_point(site) in points):
            return True
    return False


def _symbol(module: str, scope: str) -> str:
    return module if scope == "<module>" else f"{module}.{scope}"
