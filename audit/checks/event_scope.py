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
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._emus import ParsedEmu, emu_place, parsed_emus
from topo.audit.checks._producers import Producers, event_key, event_producers, union_keys
from topo.audit.checks._registry import CheckContext, check
from topo.audit.model import Finding
from topo.audit.policy.templates import placeholders

__all__ = ["event_scope", "entity_ids"]


@check(codes.EVENT_SCOPE)
def event_scope(ctx: CheckContext) -> Iterator[Finding]:
    producers = event_producers(ctx)
    for parsed in parsed_emus(ctx.emus):
        yield from _missing_attributes(ctx, parsed, producers)
        yield from _unscoped_negations(ctx, parsed)


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


def _is_id(key: str) -> bool:
    last = key.rsplit(".", 1)[-1]
    return last == "id" or last.endswith("_id")
