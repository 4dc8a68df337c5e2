"""Requests to the app's own server: `fetch('/api/llm', …)` is handled in the repository.

When the handler of the route a relative URL names (packs' `[[routes]]`: Next.js
`app/api/llm/route.ts` exports `POST`, FastAPI `@app.post("/chat/")`) calls a model, itself or
through the functions it calls, the request asks a model: its executor site becomes an
inference site (inferred, with the handler in `route`). A URL that names no route found in the
repository, or a handler that calls no model, keeps the effect.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from topo.analyzers.flow.callgraph import CallGraph, FunctionKey, function_key
from topo.analyzers.ir import FileIR, ValueKind
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import Knowledge, RouteRule

__all__ = ["Route", "app_routes", "model_routes"]

_MAX_DEPTH = 8   # calls from a handler to the function that calls the model


@dataclass(frozen=True, slots=True)
class Route:
    """One route of the app's own server: the path's segments, the method it handles (None:
    any), its handler, and the folder of the app that serves it (`web` of
    `web/app/api/x/route.ts`; a decorated handler's folder)."""

    segments: tuple[str, ...]
    method: str | None
    handler: FunctionKey
    root: str


def model_routes(files: tuple[FileIR, ...], sites: tuple[Site, ...], graph: CallGraph,
                 knowledge: Knowledge) -> tuple[Site, ...]:
    """`sites` with each executor whose relative URL reaches a model-calling handler turned
    into an inference site."""
    if not knowledge.routes:
        return sites
    routes = list(app_routes(files, knowledge))
    if not routes:
        return sites
    calls_model = _model_callers(sites, graph)
    out = []
    for site in sites:
        handler = _handler_of(site, routes) if site.kind is SiteKind.EXECUTOR else None
        if handler is not None and handler in calls_model:
            site = _as_inference(site, handler)
        out.append(site)
    return tuple(out)


def app_routes(files: Iterable[FileIR], knowledge: Knowledge) -> Iterator[Route]:
    """Every route the packs' rules find in `files`. A handler or decorator named after an
    HTTP method (`POST`, `app.post`) handles that method only."""
    decorators = knowledge.route_decorators()
    for file in files:
        for rule in knowledge.routes:
            found = _file_route(file.path, rule)
            if found is not None:
                segments, root = found
                for definition in file.definitions:
                    if definition.qualname in rule.handlers:
                        yield Route(segments, _method(definition.qualname),
                                    function_key(file, definition.qualname), root)
        for call in file.calls:
            if call.decorates is None or not call.callee or call.callee not in decorators:
                continue
            path = call.kwarg("path") or call.kwarg("rule") or (call.args[0] if call.args
                                                                 else None)
            if path is not None and path.kind is ValueKind.STRING:
                yield Route(_segments(str(path.literal)), _method(call.callee.rsplit(".", 1)[-1]),
                            function_key(file, call.decorates), file.path.rpartition("/")[0])


_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


def _method(name: object) -> str | None:
    return name.upper() if isinstance(name, str) and name.upper() in _METHODS else None


def _file_route(path: str, rule: RouteRule) -> tuple[tuple[str, ...], str] | None:
    """The route segments of a file the rule names, and the folder of its app
    (`web/app/api/llm/route.ts` → (api, llm), `web`); Next.js route groups `(name)` are not
    part of the URL."""
    parts = path.rsplit(".", 1)[0].split("/")
    for pattern in rule.files:
        before, after = (side.strip("/").split("/") if side.strip("/") else []
                         for side in pattern.split("{path}"))
        if len(parts) <= len(before) + len(after) or parts[len(parts) - len(after):] != after:
            continue
        middle = parts[:len(parts) - len(after)]
        for start in range(len(middle) - len(before), -1, -1):
            if middle[start:start + len(before)] == before:
                found = [p for p in middle[start + len(before):]
                         if not (p.startswith("(") and p.endswith(")"))]
                return (tuple(found), "/".join(parts[:start])) if found else None
    return None


def _segments(url: str) -> tuple[str, ...]:
    return tuple(part for part in url.split("?", 1)[0].split("#", 1)[0].split("/") if part)


def _handler_of(site: Site, routes: list[Route]) -> FunctionKey | None:
    """The handler of the one route a relative URL (and its method, when both say one) names
    (`/api/llm`, `/chat/`); of several, those of the innermost app folder holding the
    requesting file (a monorepo of example apps). None for an absolute or unknown URL, or
    when the choice stays open."""
    url = site.attr("url_known")
    if not isinstance(url, str) or not url.startswith("/") or url.startswith("//"):
        return None
    wanted, method = _segments(url), _method(site.attr("method"))
    found = [route for route in routes if _matches(wanted, route.segments)
             and (None in (method, route.method) or method == route.method)]
    if len({route.handler for route in found}) > 1:
        mine = [route for route in found if _holds(route.root, site.location.file)]
        innermost = max((len(route.root) for route in mine), default=-1)
        found = [route for route in mine if len(route.root) == innermost]
    handlers = {route.handler for route in found}
    return handlers.pop() if len(handlers) == 1 else None


def _holds(folder: str, file: str) -> bool:
    return not folder or file.startswith(folder + "/")


def _matches(wanted: tuple[str, ...], route: tuple[str, ...]) -> bool:
    """Segment by segment; a `*` of the request (a template hole) or a `[param]` of the route
    matches any one segment, a `[...rest]` catch-all the rest."""
    for index, part in enumerate(route):
        if part.startswith("[...") or part.startswith("[[..."):
            return len(wanted) >= index
        if index >= len(wanted):
            return False
        if not (part.startswith("[") or wanted[index] == "*" or wanted[index] == part):
            return False
    return len(wanted) == len(route)


def _model_callers(sites: Iterable[Site], graph: CallGraph) -> frozenset[FunctionKey]:
    """Functions that call a model: those holding an inference site (or a nested function
    that does), and their callers up to `_MAX_DEPTH` calls away."""
    found = {function for site in sites if site.kind is SiteKind.INFERENCE
             for function in _enclosing(site.symbol)}
    callers: dict[FunctionKey, set[FunctionKey]] = defaultdict(set)
    for edge in graph.edges:
        callers[edge.callee].add(edge.caller)
    frontier = set(found)
    for _ in range(_MAX_DEPTH):
        frontier = {caller for callee in frontier for caller in callers.get(callee, ())
                    for caller in _enclosing(caller)} - found
        if not frontier:
            break
        found |= frontier
    return frozenset(found)


def _enclosing(symbol: str) -> Iterator[str]:
    """`m.post_chat.stream` and the scopes around it (`m.post_chat`, `m`): a handler calls the
    model its nested functions call."""
    parts = symbol.split(".")
    for cut in range(len(parts), 0, -1):
        yield ".".join(parts[:cut])


def _as_inference(site: Site, handler: FunctionKey) -> Site:
    keep = ("role", "entry", "callee", "call", "url_known", "body_keys", "body_keys_literal",
            "body_keys_text")
    attrs = {name: value for name, value in site.attrs if name in keep}
    attrs |= {"role": "inference", "operation": "http", "route": handler}
    return replace(site, id="inference:" + site.id.split(":", 1)[1], kind=SiteKind.INFERENCE,
                   attrs=tuple(sorted(attrs.items())), inferred=True)
