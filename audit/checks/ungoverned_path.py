"""UNGOVERNED-PATH: model output reaches a consequential executor with no enforced check.

Seed 000: "An inference-to-execution edge with no explicit authority check is the
highest-value candidate."
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._registry import CheckContext, check, severity_for
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import SiteKind
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
        return f"the model, through tool `{origin.attr('tool_name') or origin.symbol}`,"
    return f"model output from `{origin.symbol}`"


@check(codes.UNGOVERNED_PATH)
def ungoverned_path(ctx: CheckContext) -> Iterator[Finding]:
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        chain = next((c for c in ctx.reach.of(executor) if c.influenced and not c.governed),
                     None)
        if chain is None:
            continue
        callee = executor.attr("callee") or executor.symbol
        yield ctx.finding(
            codes.UNGOVERNED_PATH, location=executor.location, symbol=executor.symbol,
            message=f"{_source(ctx, chain.origins[0])} reaches `{callee}` "
                    f"({executor.attr('tier')}) with no enforced authority check on the path",
            snippet=str(callee), path=chain.path,
            related=tuple(ctx.graph.nodes[s]["site"].location for s in chain.path[:-1]
                          if s in ctx.graph and "site" in ctx.graph.nodes[s]),
            severity=severity_for(codes.UNGOVERNED_PATH, executor.attr("tier")),
            inferred=any(ctx.graph.nodes[s].get("inferred") for s in chain.path
                         if s in ctx.graph))
