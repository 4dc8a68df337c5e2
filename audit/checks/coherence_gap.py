"""COHERENCE-GAP: an EMU, its tool and the events it reads sit in different projects.

Seed 000, "Project coherence": "Use the project as an explicit integration boundary for EMUs,
decision points, tools, and events … runtime selection does not check that an executor exists"
— the executor fails with "Tool 'x' is not available for project 'p'". And: "Cross-project
event queries are possible within a workspace, but they create a declared dependency and should
be documented in the topology." Two findings follow:
- the EMU's tool is registered (`projects=[…]`) only for projects other than the one its
  decision point is decided in (the decide call's `project=`, else its client's);
- a trigger reads `event.<project>.s.v.o` from a project that nothing declares: not the
  EMU's own project, not named in the EMU's `metadata`, and not a project the code itself
  works with (a literal `project=`/`projects=` on a client, decision, emit or tool);
- a trigger reads an event in one project (its own, or the one its `event.<project>.s.v.o`
  names) while every emitter of that event emits it into other projects: "Use the project as
  an explicit integration boundary for … events". The clause then never sees the event (a
  negated one always holds). Judged only when every emitter's project is known (its
  `project=`, else its client's) and no emitter's event name is computed.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._integration import (MEMRAIL, calls_by_point, decision_project,
                                            emu_tool_id, has_app_code, memrail_tools,
                                            repo_projects, site_project)
from topo.audit.checks._producers import event_key
from topo.audit.checks._registry import CheckContext, check
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Site, SiteKind
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["coherence_gap"]


@check(codes.COHERENCE_GAP)
def coherence_gap(ctx: CheckContext) -> Iterator[Finding]:
    if not has_app_code(ctx):
        return
    known = frozenset(repo_projects(ctx))
    callers = calls_by_point(ctx)
    tools = memrail_tools(ctx)
    emitters = _emitters(ctx)
    for emu in ctx.emus:
        own = frozenset(p for p in (decision_project(ctx, site) for site in
                                    callers.get(emu.decision_point or "", [])) if p)
        message = _tool_gap(emu, own, tools)
        if message:
            yield ctx.finding(codes.COHERENCE_GAP, location=emu.location, symbol=emu.label,
                              emu_key=emu.emu_key, message=message,
                              snippet=f"tool {emu_tool_id(emu)}")
        for accessor, read, emits in _emitted_elsewhere(ctx, emu, own, emitters):
            where = ", ".join(sorted({f"`{p}`" for p, _ in emits}))
            yield ctx.finding(
                codes.COHERENCE_GAP, location=emu.location, symbol=emu.label,
                emu_key=emu.emu_key, snippet=accessor,
                message=f"EMU `{emu.label}` reads `{accessor}` in project "
                        f"{_names(sorted(read))}, but the code emits it only into project {where}",
                related=tuple(sorted({site.location for _, site in emits})))
        for project, accessor in _undeclared_events(emu, own, known):
            yield ctx.finding(
                codes.COHERENCE_GAP, location=emu.location, symbol=emu.label,
                emu_key=emu.emu_key, snippet=accessor,
                message=f"EMU `{emu.label}` reads `{accessor}` from project `{project}`, a "
                        f"cross-project dependency that neither the EMU's metadata nor the "
                        f"code declares")


def _tool_gap(emu: Emu, own: frozenset[str], registrations: list[Site]) -> str | None:
    """`own`: the projects the EMU is decided in (those of the calls naming its point)."""
    tool_id = emu_tool_id(emu)
    if tool_id is None or not own:
        return None
    tools = [t for t in registrations if t.attr("tool_name") == tool_id]
    if not tools or any(not isinstance(t.attr("projects"), tuple) for t in tools):
        return None     # unregistered is ACTION-GAP; computed or absent projects: unknown
    registered = frozenset(p for t in tools for p in t.attr("projects"))
    missing = sorted(own - registered)
    if not missing:
        return None
    return (f"EMU `{emu.label}` is decided in project {_names(missing)} but its tool "
            f"`{tool_id}` is registered only for {_names(sorted(registered))}")


def _undeclared_events(emu: Emu, own: frozenset[str],
                       known: frozenset[str]) -> Iterator[tuple[str, str]]:
    # With no project named anywhere we cannot tell a cross-project event from one of the
    # EMU's own project (configured through the environment): say nothing.
    if emu.ast is None or not (own or known):
        return
    declared = own | known | frozenset(_metadata_strings(emu.raw.get("metadata")))
    seen: set[str] = set()
    for dependency in emu.dependencies:
        project = dependency.project
        if dependency.kind != "event" or not project or project in declared:
            continue
        if dependency.accessor not in seen:
            seen.add(dependency.accessor)
            yield project, dependency.accessor


Emits = dict[str, list[tuple[str | None, Site]]]


def _emitters(ctx: CheckContext) -> Emits | None:
    """Every literal event name the code emits, with each emit's project (None when not
    known); None when some emit's name is computed (it may emit anything, anywhere)."""
    found: Emits = {}
    for site in sites_of_kind(ctx.graph, SiteKind.EVENT_EMIT):
        if site.system != MEMRAIL:
            continue
        if site.attr("event_name_literal") is False or site.attr("event_names_literal") is False:
            return None
        name, names = site.attr("event_name"), site.attr("event_names")
        emitted = [name] if isinstance(name, str) else \
            [n for n in names if isinstance(n, str)] if isinstance(names, tuple) else []
        project = site_project(site, ctx.calls, ctx.facts.knowledge)
        for event in emitted:
            found.setdefault(event_key(event), []).append((project, site))
    return found


def _emitted_elsewhere(ctx: CheckContext, emu: Emu, own: frozenset[str], emitters: Emits | None
                       ) -> Iterator[tuple[str, frozenset[str], list[tuple[str, Site]]]]:
    """(accessor, the projects it is read in, the emits) for each event clause whose every
    emit goes to a known project other than those."""
    if emu.ast is None or emitters is None:
        return
    seen: set[str] = set()
    for dependency in emu.dependencies:
        if dependency.kind != "event" or dependency.accessor in seen:
            continue
        read = frozenset({dependency.project}) if dependency.project else own
        emits = emitters.get(event_key(dependency.key), [])
        if not read or not emits or any(project is None for project, _ in emits):
            continue
        if any(project in read for project, _ in emits):
            continue
        seen.add(dependency.accessor)
        yield dependency.accessor, read, [(str(p), site) for p, site in emits]


def _metadata_strings(value: object) -> Iterator[str]:
    """Every string in the EMU's metadata (`{"depends_on_projects": ["billing"]}`)."""
    match value:
        case str():
            yield value
        case dict():
            for item in value.values():
                yield from _metadata_strings(item)
        case list():
            for item in value:
                yield from _metadata_strings(item)


def _names(projects: list[str]) -> str:
    return ", ".join(f"`{p}`" for p in projects)
