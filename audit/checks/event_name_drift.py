"""EVENT-NAME-DRIFT: an event clause names an event nothing emits, while the code emits a
reordering or a near-miss spelling of it (`agent.sent.email` against `agent.email.sent`).

Seed 000's event correctness pass: "confirm the emitted name exactly follows the trigger's
`subject.verb.object` order". A positive clause that drifted never matches, so the EMU is dead;
a negated one always passes, so it guards nothing. The second case is a ghost guard with a
producer in sight, so it is reported here instead of as GHOST-EVENT: the fix is the name.
Medium by default: the mistake is plain once shown, and the producer already exists.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._emus import emu_place, parsed_emus
from topo.audit.checks._event_names import drifted_names
from topo.audit.checks._producers import event_key, event_producers
from topo.audit.checks._registry import CheckContext, check
from topo.audit.model import Finding

__all__ = ["event_name_drift"]


@check(codes.EVENT_NAME_DRIFT)
def event_name_drift(ctx: CheckContext) -> Iterator[Finding]:
    producers = event_producers(ctx)
    for parsed in parsed_emus(ctx.emus):
        reported: set[str] = set()
        for dependency in parsed.dependencies:
            name = event_key(dependency.key)
            if dependency.kind != "event" or name in reported or producers.of(name):
                continue
            drifts = drifted_names(name, producers.names)
            if not drifts:
                continue
            reported.add(name)
            emitted, how = drifts[0]
            sources = [p for other, _ in drifts for p in producers.of(other)]
            yield ctx.finding(
                codes.EVENT_NAME_DRIFT, **emu_place(parsed.emu), snippet=dependency.accessor,
                message=f"EMU `{parsed.emu.label}` reads `{dependency.accessor}`, which nothing "
                        f"emits, while the code emits `{emitted}` ({how})",
                related=tuple(sorted({p.location for p in sources})),
                inferred=all(p.inferred for p in sources))
