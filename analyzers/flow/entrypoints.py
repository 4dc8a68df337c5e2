"""Entry points: where work starts with no caller in the repository (seed 000's audit scope:
"API handlers, middleware, webhooks, queues, and scheduled jobs").

The packs find scheduled jobs, queue consumers, CLI commands, Express routes and webhook
signature checks (`entrypoints.toml`); this stage adds the HTTP routes of `[[routes]]` (FastAPI,
Flask, Next.js route files), and settles webhooks: a route whose handler verifies a provider's
signature, or whose path names a webhook, is a webhook; a signature check outside any known route
makes its enclosing function a webhook on its own. `entry_of` answers, per function, the most
specific way in (`ENTRY_KINDS` order), for the chains that start there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from topo.analyzers.flow.callgraph import CallGraph
from topo.analyzers.flow.routes import app_routes
from topo.analyzers.ir import FileIR
from topo.analyzers.model import ENTRY_KINDS, Location, Site, SiteKind
from topo.analyzers.packs import Knowledge

__all__ = ["entry_points", "entry_of", "WEBHOOK", "HTTP_ROUTE"]

WEBHOOK, HTTP_ROUTE = "webhook", "http_route"
_SYSTEM = "routes"
# A path segment naming a webhook (`/webhooks/stripe`, `/api/stripe-webhook`): a URL
# convention, not a framework's API.
_WEBHOOK_WORD = "webhook"


def entry_points(files: tuple[FileIR, ...], sites: tuple[Site, ...], graph: CallGraph,
                 knowledge: Knowledge) -> tuple[Site, ...]:
    """`sites` with an entry point for each route handler, and webhooks settled."""
    routes = [*(s for s in sites if _is_route(s)), *_route_sites(files, sites, graph, knowledge)]
    verifiers: dict[str, list[Site]] = {}     # enclosing function -> its signature checks
    for site in sites:
        if site.kind is SiteKind.ENTRY_POINT and site.attr("entry_kind") == WEBHOOK \
                and not site.attr("definition"):
            verifiers.setdefault(site.symbol, []).append(site)
    settled = {r.id: _settled(r, verifiers.get(str(r.attr("definition")), [None])[0])
               for r in routes}
    routed = {str(r.attr("definition")) for r in routes}
    merged = {v.id for key, found in verifiers.items() if key in routed for v in found}
    lone = {v.id for found in verifiers.values() for v in found} - merged
    present = {s.id for s in sites}
    out = [_own_webhook(s) if s.id in lone else settled.get(s.id, s) for s in sites
           if s.id not in merged]
    return (*out, *(settled[r.id] for r in routes if r.id not in present))


def entry_of(sites: Iterable[Site]) -> dict[str, Site]:
    """function key → its most specific entry point site (webhook before route, …)."""
    rank = {kind: index for index, kind in enumerate(ENTRY_KINDS)}
    found: dict[str, Site] = {}
    for site in sites:
        if site.kind is not SiteKind.ENTRY_POINT or not isinstance(site.attr("definition"), str):
            continue
        key = str(site.attr("definition"))
        known = found.get(key)
        if known is None or _order(site, rank) < _order(known, rank):
            found[key] = site
    return found


def _order(site: Site, rank: Mapping[str, int]) -> tuple[int, str]:
    return rank.get(str(site.attr("entry_kind")), len(rank)), site.id


def _is_route(site: Site) -> bool:
    return site.kind is SiteKind.ENTRY_POINT and site.attr("entry_kind") == HTTP_ROUTE


def _route_sites(files: tuple[FileIR, ...], sites: tuple[Site, ...], graph: CallGraph,
                 knowledge: Knowledge) -> list[Site]:
    """An http_route entry at each `[[routes]]` handler's definition."""
    if not knowledge.routes:
        return []
    known = {str(s.attr("definition")) for s in sites if _is_route(s)}
    found: dict[str, Site] = {}
    for route in app_routes(files, knowledge):
        where = graph.definitions.get(route.handler)
        if where is None or route.handler in known:
            continue
        file, definition = where
        start = definition.location
        location = Location(start.file, start.line, start.column)
        attrs = {"role": "observation", "entry_kind": HTTP_ROUTE, "definition": route.handler,
                 "path": "/" + "/".join(route.segments)}
        if route.method:
            attrs["method"] = route.method
        site = Site(id=f"{SiteKind.ENTRY_POINT.value}:{start.file}:{start.line}:{start.column}",
                    kind=SiteKind.ENTRY_POINT, system=_SYSTEM, language=file.language.value,
                    location=location, symbol=route.handler, attrs=tuple(sorted(attrs.items())))
        found.setdefault(site.id, site)
    return [found[key] for key in sorted(found)]


def _settled(route: Site, verifier: Site | None) -> Site:
    """A route is a webhook when its handler verifies a signature or its path names one;
    an Express route's method is its registration's (`app.post`)."""
    attrs = dict(route.attrs)
    callee = str(attrs.get("callee") or "")
    if "method" not in attrs and route.system != _SYSTEM and callee:
        method = callee.rsplit(".", 1)[-1].upper()
        if method in {"GET", "POST", "PUT", "PATCH", "DELETE"}:
            attrs["method"] = method
    path = attrs.get("path")
    if verifier is not None:
        attrs |= {"entry_kind": WEBHOOK, "verified_by": str(verifier.attr("callee"))}
    elif isinstance(path, str) and _WEBHOOK_WORD in path.lower():
        attrs["entry_kind"] = WEBHOOK
    return replace(route, attrs=tuple(sorted(attrs.items())))


def _own_webhook(verifier: Site) -> Site:
    """A signature check in no known route: its enclosing function handles the webhook."""
    return verifier.with_attrs(definition=verifier.symbol,
                               verified_by=str(verifier.attr("callee")))
