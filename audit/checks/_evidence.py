"""How checks name their evidence in messages: short, stable, the way a reader would say it.

Messages name symbols, decision points and callees; never line numbers (findings.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.analyzers.ir import MODULE_SCOPE, Call, FileIR
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import SITE
from topo.analyzers.model import Location, Site

__all__ = ["callee_text", "control_text", "executor_text", "site_of", "origin_text",
           "locations", "call_symbol", "scope_symbol"]


def site_of(ctx: CheckContext, site_id: str) -> Site | None:
    data = ctx.graph.nodes[site_id] if site_id in ctx.graph else None
    return None if data is None else data.get(SITE)


def callee_text(site: Site) -> str:
    """`AsyncAMIClient.decide` for `memrail.AsyncAMIClient.decide`: class and method."""
    callee = str(site.attr("callee") or site.symbol)
    return ".".join(callee.split(".")[-2:])


def control_text(site: Site) -> str:
    """A decision or approval call: `AMIClient.decide` (`support.refund`)."""
    point = site.attr("decision_point")
    text = f"`{callee_text(site)}`"
    return f"{text} (`{point}`)" if isinstance(point, str) else text


def executor_text(site: Site) -> str:
    """`stripe.Refund.create` (money)."""
    return f"`{site.attr('callee') or site.symbol}` ({site.attr('tier')})"


def origin_text(ctx: CheckContext, origins: Iterable[str]) -> str:
    """The symbol of the first model origin (`app.agent.classify`), or its id."""
    for origin in origins:
        site = site_of(ctx, origin)
        return f"`{site.symbol}`" if site is not None else f"`{origin}`"
    return "the model"


def locations(ctx: CheckContext, site_ids: Iterable[str]) -> tuple[Location, ...]:
    """Locations of the sites among `site_ids`, in order (for `related`)."""
    found = (site_of(ctx, s) for s in site_ids)
    return tuple(site.location for site in found if site is not None)


def call_symbol(file: FileIR, call: Call) -> str:
    """The symbol of the definition a call sits in (`app.agent.handle`), as sites name it."""
    return scope_symbol(file, call.scope)


def scope_symbol(file: FileIR, scope: str) -> str:
    """The symbol of a scope of `file` (`app.agent.handle`), as sites name it."""
    return file.module if scope == MODULE_SCOPE else f"{file.module}.{scope}"
