"""Who emits which event, with which attributes: the producer side of the event checks.

Seed 000's event correctness pass asks, for every `event.*` clause, for "an exact producer and
required attributes". The EVENT_EMIT sites of the rule packs are the producers; this module
reads them once into `Producers`, keyed by `subject.verb.object` (a project prefix never takes
part in the comparison: `event.billing.customer.received.refund` is produced by an emitter of
`customer.received.refund`).

What is and is not known, decided here once for every event check:
- An emitter whose name is not a literal (`emit_event(ev)`, `event(name, …)`) is *dynamic*: it
  may emit anything. Then every event builder of the repository (an ATOM site of kind `event`
  with a literal topic) counts as a possible producer, inferred: the builder most likely flows
  into that emitter.
- Attribute keys are known when the emitter sends one event built in place and its
  `attributes=` is a dict literal (no attributes at all is known too: none). `emit_events([...])`
  and non-literal attributes leave them unknown (None), and unknown never yields a finding.
- The audit *read code* when at least one source file parsed. Without that, an EMU file alone
  cannot show that nothing emits an event. Memrail code in a language no rule pack covers
  (its imports say Memrail, no site of that language does) may emit unseen events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from topo.audit.checks._integration import MEMRAIL
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Location, Site, SiteKind

__all__ = ["Producer", "Producers", "event_producers", "event_key", "union_keys"]


@dataclass(frozen=True, slots=True)
class Producer:
    """One place that emits (or may emit) `name`; `attribute_keys` None when unknown."""

    name: str
    location: Location
    attribute_keys: tuple[str, ...] | None
    inferred: bool


@dataclass(frozen=True, slots=True)
class Producers:
    """Every producer by event key, and what limits the conclusions drawn from their absence.

    `read_code`: some source file parsed. `uncertain`: why an absent producer may still exist
    (a dynamic emitter, an unreadable file, no Memrail code at all), empty when nothing does.
    """

    by_event: dict[str, tuple[Producer, ...]]
    read_code: bool
    uncertain: tuple[str, ...]

    def of(self, name: str) -> tuple[Producer, ...]:
        """The producers of an event, given as written (`s.v.o` or `project.s.v.o`)."""
        return self.by_event.get(event_key(name), ())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self.by_event))


def event_key(name: str) -> str:
    """The `subject.verb.object` an event name is compared on (a project prefix dropped)."""
    parts = name.split(".")
    return ".".join(parts[-3:]) if len(parts) > 3 else name


def event_producers(ctx: CheckContext) -> Producers:
    """The producers of every event in the audited code (see the module docstring)."""
    emitters = list(sites_of_kind(ctx.graph, SiteKind.EVENT_EMIT))
    found = [p for site in emitters for p in _from_emitter(site)]
    dynamic = [site for site in emitters if _is_dynamic(site)]
    if dynamic:
        found += [_from_builder(site) for site in sites_of_kind(ctx.graph, SiteKind.ATOM)
                  if site.attr("kind") == "event" and isinstance(site.attr("key"), str)]
    by_event: dict[str, list[Producer]] = {}
    for producer in found:
        by_event.setdefault(event_key(producer.name), []).append(producer)
    readable = [f for f in ctx.facts.files if f.parse_error is None]
    uncertain = []
    if dynamic:
        uncertain.append(f"{len(dynamic)} emitter(s) with a non-literal event name")
    if len(readable) < len(ctx.facts.files):
        uncertain.append(f"{len(ctx.facts.files) - len(readable)} unreadable source file(s)")
    classified = {site.language for site in ctx.facts.sites if site.system == MEMRAIL}
    unseen = sorted({f.language.value for f in readable
                     if ctx.facts.knowledge.imports_system(MEMRAIL, (i.module for i in f.imports))}
                    - classified)
    if unseen:
        uncertain.append(f"Memrail code in {', '.join(unseen)} that no rule pack classifies")
    elif readable and not classified:
        uncertain.append("no Memrail code in the repository")
    return Producers({k: tuple(v) for k, v in sorted(by_event.items())}, bool(readable),
                     tuple(uncertain))


def union_keys(producers: Iterable[Producer]) -> frozenset[str] | None:
    """Every attribute key the producers send, or None when any of them is unknown."""
    keys: set[str] = set()
    for producer in producers:
        if producer.attribute_keys is None:
            return None
        keys.update(producer.attribute_keys)
    return frozenset(keys)


# ---- reading sites -------------------------------------------------------------------------

def _from_emitter(site: Site) -> list[Producer]:
    name = site.attr("event_name")
    if isinstance(name, str):
        return [Producer(name, site.location, _known_keys(site), site.inferred)]
    names = site.attr("event_names")
    if isinstance(names, tuple):
        return [Producer(str(n), site.location, None, site.inferred) for n in names]
    return []


def _from_builder(site: Site) -> Producer:
    return Producer(str(site.attr("key")), site.location, _known_keys(site), True)


def _known_keys(site: Site) -> tuple[str, ...] | None:
    if site.attr("attribute_keys_literal") is False:
        return None
    keys = site.attr("attribute_keys")
    return tuple(str(k) for k in keys) if isinstance(keys, tuple) else ()


def _is_dynamic(site: Site) -> bool:
    return site.attr("event_name_literal") is False or site.attr("event_names_literal") is False
