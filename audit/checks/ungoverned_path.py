"""UNGOVERNED-PATH: model output reaches a consequential executor with no enforced check.

Seed 000: "An inference-to-execution edge with no explicit authority check is the
highest-value candidate."

One finding per effect: when several entries (tools the model invokes, model calls) reach the
same executor ungoverned, the first chain is the finding's path and the other entries are its
related locations, after the path's own.

An approval whose callback approves by itself (an environment switch such as
`SHELL_AUTO_APPROVE=1`, or always) governs nothing: the finding names the switch and is
inferred, since whether the switch is set is the deployment's choice.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._registry import CheckContext, check, executor_severity
from topo.audit.graph.build import sites_of_kind
from topo.audit.graph.chains import Chain
from topo.audit.graph.failopen import ALWAYS
from topo.analyzers.model import Location, Site, SiteKind
from topo.audit.model import Finding

__all__ = ["ungoverned_path"]


def _source(ctx: CheckContext, origin_id: str) -> str:
    """How the model's influence enters: a model call's output, or a tool the model invokes."""
    origin = ctx.graph.nodes[origin_id].get("site") if origin_id in ctx.graph else None
    if origin is None:
        return f"model output from `{origin_id}`"
    if origin.kind is SiteKind.TOOL_REGISTRATION and origin.attr("receives") == "output":
        return f"the model's output, handed to `{origin.symbol}`,"
    if origin.kind is SiteKind.TOOL_REGISTRATION:
        name = origin.attr("tool_name") or origin.attr("definition") or origin.symbol
        return f"the model, through tool `{name}`,"
    return f"model output from `{origin.symbol}`"


def _effect(executor: Site) -> str:
    """The executor as the message names it: its API, or an intent executor's tool."""
    if executor.attr("stub_or_in_memory"):
        return (f"`{executor.attr('tool_name') or executor.symbol}` "
                f"({executor.attr('tier')}, stub or in-memory)")
    return f"`{executor.attr('callee') or executor.symbol}` ({executor.attr('tier')})"


def _fails_open(ctx: CheckContext, chains: list[Chain]) -> str:
    """Why a registration's approval does not count, when that is a reason."""
    switches = [switch for chain in chains for _, switch in chain.fails_open]
    if not switches:
        return _conditional(ctx, chains)
    switch = switches[0]
    if switch == ALWAYS:
        return "; its approval callback approves every call"
    return f"; its approval callback approves every call when `{switch}` is set"


def _not_model(ctx: CheckContext, chains: list[Chain]) -> str:
    """The checks that stand on the path yet are no model's authority (configuration, a flag,
    a role or a database rule), when there are some: they select, they do not approve."""
    gates = [ctx.graph.nodes[g]["site"] for c in chains for g in c.policies
             if g in ctx.graph and "site" in ctx.graph.nodes[g]]
    if not gates:
        return ""
    gate = gates[0]
    label = gate.attr("operand") or gate.attr("flag") or gate.attr("callee")
    kind = gate.attr("authority_kind") or "flag"
    return f"; `{label}` ({kind}) stands on it but approves nothing the model proposes"


def _conditional(ctx: CheckContext, chains: list[Chain]) -> str:
    """A tool whose approval predicate asks a human for some calls only."""
    for origin in (o for chain in chains for o in chain.origins):
        site = ctx.graph.nodes[origin].get("site") if origin in ctx.graph else None
        if site is not None and site.kind is SiteKind.TOOL_REGISTRATION \
                and site.attr("approval_conditional"):
            return (f"; its approval predicate `{site.attr('approval_predicate')}` lets "
                    "some calls run without a human")
    return ""


def _locations(ctx: CheckContext, ids: Iterator[str] | tuple[str, ...]) -> tuple[Location, ...]:
    return tuple(ctx.graph.nodes[s]["site"].location for s in ids
                 if s in ctx.graph and "site" in ctx.graph.nodes[s])


def _related(ctx: CheckContext, chains: list[Chain]) -> tuple[Location, ...]:
    """The first chain's path before the executor, then the other chains' entries."""
    first = chains[0].path[:-1]
    others = (origin for chain in chains[1:] for origin in chain.origins)
    ids = tuple(dict.fromkeys((*first, *others)))
    return tuple(dict.fromkeys(_locations(ctx, ids)))


@check(codes.UNGOVERNED_PATH)
def ungoverned_path(ctx: CheckContext) -> Iterator[Finding]:
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        chains = [c for c in ctx.reach.of(executor) if c.influenced and not c.governed]
        if not chains:
            continue
        chain = chains[0]
        entries = dict.fromkeys(origin for c in chains for origin in c.origins)
        others = len(entries) - 1
        more = f" (and {others} more {'entry' if others == 1 else 'entries'})" if others else ""
        yield ctx.finding(
            codes.UNGOVERNED_PATH, location=executor.location, symbol=executor.symbol,
            message=f"{_source(ctx, chain.origins[0])} reaches {_effect(executor)} "
                    f"with no enforced authority check on the path{more}{_fails_open(ctx, chains)}"
                    f"{_not_model(ctx, chains)}",
            snippet=str(executor.attr("callee") or executor.symbol), path=chain.path,
            related=_related(ctx, chains),
            severity=executor_severity(codes.UNGOVERNED_PATH, executor),
            inferred=any(c.fails_open for c in chains) or any(
                ctx.graph.nodes[s].get("inferred") for s in chain.path if s in ctx.graph))
