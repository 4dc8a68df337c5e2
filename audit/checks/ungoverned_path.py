"""UNGOVERNED-PATH: model output reaches a consequential executor with no enforced check.

Seed 000: "An inference-to-execution edge with no explicit authority check is the
highest-value candidate."
"""

from __future__ import annotations

from collections.abc import Iterator

from audit import codes
from audit.checks._reach import chains
from audit.checks._registry import CheckContext, check, severity_for
from audit.graph import sites_of_kind
from audit.model import Finding, SiteKind

__all__ = ["ungoverned_path"]


@check(codes.UNGOVERNED_PATH)
def ungoverned_path(ctx: CheckContext) -> Iterator[Finding]:
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        chain = next((c for c in chains(ctx, executor) if c.influenced and not c.governed),
                     None)
        if chain is None:
            continue
        origin = ctx.graph.nodes[chain.origins[0]]["site"] if chain.origins[0] in ctx.graph \
            else None
        source = origin.symbol if origin is not None else chain.origins[0]
        callee = executor.attr("callee") or executor.symbol
        yield ctx.finding(
            codes.UNGOVERNED_PATH, location=executor.location, symbol=executor.symbol,
            message=f"model output from `{source}` reaches `{callee}` "
                    f"({executor.attr('tier')}) with no enforced authority check on the path",
            snippet=str(callee), path=chain.path,
            related=tuple(ctx.graph.nodes[s]["site"].location for s in chain.path[:-1]
                          if s in ctx.graph and "site" in ctx.graph.nodes[s]),
            severity=severity_for(codes.UNGOVERNED_PATH, executor.attr("tier")),
            inferred=any(ctx.graph.nodes[s].get("inferred") for s in chain.path
                         if s in ctx.graph))
