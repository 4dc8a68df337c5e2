"""GHOST-EVENT: a negated event clause whose event no code in the repository emits.

Seed 000, "A negative event guard always passes": "If no producer emits `agent.sent.email`,
this condition is always true", and the event correctness pass: "confirm a negative event
clause is not a ghost guard that is always true". Every clause that holds on empty history
counts: `NOT event… IN '…'`, `COUNT … == 0`, `COUNT … < n`.

When an emitted event is a near-miss of the clause's name, EVENT-NAME-DRIFT reports it
instead: the producer exists, the name is wrong. When the audit read no source file at all
(an EMU-only repository), nothing is reported: an EMU file alone cannot show that no code
emits an event. When a producer may hide where the audit cannot see it (a non-literal event
name, an unreadable file, a repository without Memrail code), the finding is `inferred`.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._emus import emu_place, parsed_emus
from topo.audit.checks._event_names import drifted_names
from topo.audit.checks._producers import event_key, event_producers
from topo.audit.checks._registry import CheckContext, check
from topo.audit.model import Finding

__all__ = ["ghost_event"]


@check(codes.GHOST_EVENT)
def ghost_event(ctx: CheckContext) -> Iterator[Finding]:
    producers = event_producers(ctx)
    if not producers.read_code:
        return
    for parsed in parsed_emus(ctx.emus):
        reported: set[str] = set()
        for dependency in parsed.dependencies:
            name = event_key(dependency.key)
            if (dependency.kind != "event" or not dependency.holds_when_absent
                    or name in reported or producers.of(name)
                    or drifted_names(name, producers.names)):
                continue
            reported.add(name)
            form = "a COUNT that holds at zero" if dependency.under_count else "a negated clause"
            yield ctx.finding(
                codes.GHOST_EVENT, **emu_place(parsed.emu), snippet=dependency.accessor,
                message=f"EMU `{parsed.emu.label}` reads `{dependency.accessor}` in {form}, "
                        f"but no code in the repository emits `{name}`",
                inferred=bool(producers.uncertain))
