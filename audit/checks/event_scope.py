"""EVENT-SCOPE: an event clause that cannot tell the current entity's events from others'.

Two shapes, both from seed 000 ("Scope events to the current entity"; "An event matches the
wrong entity"; the event correctness pass: "confirm attributes include entity IDs referenced by
`WHERE`"):

- **a WHERE filter on an attribute no producer sends**: "The event producer must include
  `customer_id` in its attributes." Only when every producer of the event is known, with
  literal attributes; one producer with unknown attributes keeps the check quiet. A positive
  clause then never matches; a negated one always passes.
- **a negated event without WHERE in a trigger about one entity**: "Without a `WHERE` clause,
  an event query may match any event of that name in the project." The trigger is about one
  entity when it reads an id (`state.customer.id`, `state.refund.request_id`), or when its
  action or a WHERE filter interpolates one (`{{customer.id}}`). This shape needs no code: the
  EMU alone shows it.
- **an id of another entity under the filtered attribute**: the trigger compares
  `customer_id == '{{customer.id}}'` but a producer fills `customer_id` from `order.id`
  (the event correctness pass: "confirm attributes include entity IDs referenced by
  `WHERE`"). The filter then compares a customer id with an order id and never matches. The
  entity of an id is read from its name (`order.id`, `ticket.customer_id`,
  `args["order_id"]`, `orderId`): a name heuristic, so the finding is inferred, and generic
  holders (`item.id`, `self.id`, `data["id"]`) are not judged. The entities the filter
  compares with are the attribute's, the placeholder's and those of the values the code
  builds that state key from (`state("refund.request_id", ticket.id)` makes a ticket id the
  request id).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._emus import ParsedEmu, emu_place, parsed_emus
from topo.audit.checks._producers import Producers, event_key, event_producers, union_keys
from topo.audit.checks._registry import CheckContext, check
from topo.audit.graph.build import sites_of_kind
from topo.audit.model import Finding
from topo.analyzers.model import Site, SiteKind
from topo.audit.policy.templates import placeholders

__all__ = ["event_scope", "entity_ids", "entity_of"]


@check(codes.EVENT_SCOPE)
def event_scope(ctx: CheckContext) -> Iterator[Finding]:
    producers = event_producers(ctx)
    builders = _event_builders(ctx)
    supplied = _supplied_entities(ctx)
    for parsed in parsed_emus(ctx.emus):
        yield from _missing_attributes(ctx, parsed, producers)
        yield from _unscoped_negations(ctx, parsed)
        yield from _foreign_ids(ctx, parsed, builders, supplied)


def entity_ids(parsed: ParsedEmu) -> tuple[str, ...]:
    """The entity ids an EMU is about, as accessors (`state.customer.id`), in source order."""
    keys = [d.key for d in parsed.dependencies if d.kind == "state"]
    keys += [key for d in parsed.dependencies for key in d.templates]
    keys += [p.key for p in placeholders(parsed.emu.action)]
    return tuple(dict.fromkeys(f"state.{k}" for k in keys if _is_id(k)))


def _missing_attributes(ctx: CheckContext, parsed: ParsedEmu,
                        producers: Producers) -> Iterator[Finding]:
    reported: set[tuple[str, str]] = set()
    for dependency in parsed.dependencies:
        if dependency.kind != "event" or not dependency.where_attrs:
            continue
        name = event_key(dependency.key)
        sources = producers.of(name)
        sent = union_keys(sources)
        if not sources or sent is None:
            continue
        for attr in dependency.where_attrs:
            if attr in sent or (name, attr) in reported:
                continue
            reported.add((name, attr))
            shown = ", ".join(f"`{k}`" for k in sorted(sent)) or "no attributes"
            yield ctx.finding(
                codes.EVENT_SCOPE, **emu_place(parsed.emu),
                snippet=f"{dependency.accessor} WHERE {attr}",
                message=f"EMU `{parsed.emu.label}` filters `{dependency.accessor}` on `{attr}`, "
                        f"which no emitter of `{name}` sends (they send {shown})",
                related=tuple(sorted({p.location for p in sources})),
                inferred=any(p.inferred for p in sources))


def _unscoped_negations(ctx: CheckContext, parsed: ParsedEmu) -> Iterator[Finding]:
    ids = entity_ids(parsed)
    if not ids:
        return
    reported: set[str] = set()
    for dependency in parsed.dependencies:
        if (dependency.kind != "event" or not dependency.holds_when_absent
                or dependency.where_attrs or dependency.accessor in reported):
            continue
        reported.add(dependency.accessor)
        yield ctx.finding(
            codes.EVENT_SCOPE, **emu_place(parsed.emu), snippet=dependency.accessor,
            message=f"EMU `{parsed.emu.label}` is about one entity (`{ids[0]}`) but its "
                    f"absence test on `{dependency.accessor}` has no WHERE filter, so an "
                    "event for any entity counts")


def _event_builders(ctx: CheckContext) -> dict[str, list[Site]]:
    """The event builders (ATOM sites of kind `event` with a literal topic) by event key."""
    found: dict[str, list[Site]] = {}
    for site in sites_of_kind(ctx.graph, SiteKind.ATOM):
        key = site.attr("key")
        if site.attr("kind") == "event" and isinstance(key, str):
            found.setdefault(event_key(key), []).append(site)
    return found


def _supplied_entities(ctx: CheckContext) -> dict[str, set[str | None]]:
    """For each state key, the entities of the values the code builds it from
    (`state("refund.request_id", ticket.id)`: the ticket id is the request id here)."""
    found: dict[str, set[str | None]] = {}
    for site in sites_of_kind(ctx.graph, SiteKind.ATOM):
        key, text = site.attr("key"), site.attr("value_text")
        if site.attr("kind") == "state" and isinstance(key, str) and isinstance(text, str):
            found.setdefault(key, set()).add(entity_of(text))
    return found


def _foreign_ids(ctx: CheckContext, parsed: ParsedEmu, builders: dict[str, list[Site]],
                 supplied: dict[str, set[str | None]]) -> Iterator[Finding]:
    reported: set[tuple[str, str]] = set()
    for dependency in parsed.dependencies:
        if dependency.kind != "event":
            continue
        for attr, key in dependency.where_keys:
            compared = {e for e in (entity_of(attr), entity_of(key), *supplied.get(key, ()))
                        if e}
            for builder in builders.get(event_key(dependency.key), []):
                path = dict(_reads(builder)).get(attr)
                sent = entity_of(path or "")
                if not compared or sent is None or sent in compared \
                        or (dependency.accessor, attr) in reported:
                    continue
                reported.add((dependency.accessor, attr))
                yield ctx.finding(
                    codes.EVENT_SCOPE, **emu_place(parsed.emu),
                    snippet=f"{dependency.accessor} WHERE {attr}",
                    message=f"EMU `{parsed.emu.label}` compares `{attr}` of "
                            f"`{dependency.accessor}` with `{{{{{key}}}}}`, an id of "
                            f"{_shown(compared)}, but the emitter sends `{attr}` = `{path}`, "
                            f"an id of `{sent}`",
                    related=(builder.location,), inferred=True)


def _reads(site: Site) -> tuple[tuple[str, str], ...]:
    pairs = site.attr("attribute_reads")
    return tuple(p for p in pairs if isinstance(p, tuple) and len(p) == 2) \
        if isinstance(pairs, tuple) else ()


def _shown(entities: set[str]) -> str:
    return " or ".join(f"`{e}`" for e in sorted(entities))


_SUBSCRIPT = re.compile(r"""\[\s*["'](\w+)["']\s*\]""")
_CAMEL_ID = re.compile(r"^([a-z][a-zA-Z0-9]*?)(?:Id|ID)$")
# Holders that say nothing about the entity whose id they hold.
_GENERIC = frozenset({"self", "this", "cls", "item", "obj", "object", "data", "payload",
                      "record", "row", "entity", "args", "kwargs", "params", "input", "body",
                      "ctx", "context", "event", "result", "response", "res", "req", "value",
                      "values", "doc", "node", "props", "options", "config", "meta",
                      "metadata", "attributes", "attrs", "state", "x", "e", "o", "it"})


def entity_of(path: str) -> str | None:
    """The entity an id path names, singular and lower case: `order.id`, `order_id`,
    `ticket.order_id`, `args["order_id"]`, `orderId` → `order`; None when the path is no id
    or its holder is generic (`item.id`)."""
    parts = _SUBSCRIPT.sub(lambda m: f".{m.group(1)}", path.strip()).split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    last = parts[-1]
    if last.lower() == "id" and len(parts) >= 2:
        name = parts[-2]
    elif last.endswith("_id") and len(last) > 3:
        name = last[:-3]
    elif _CAMEL_ID.match(last):
        name = _CAMEL_ID.match(last).group(1)  # type: ignore[union-attr]
    else:
        return None
    name = name.lower()
    if name in _GENERIC:
        return None
    return name[:-1] if len(name) > 3 and name.endswith("s") and not name.endswith("ss") \
        else name


def _is_id(key: str) -> bool:
    last = key.rsplit(".", 1)[-1]
    return last == "id" or last.endswith("_id")
