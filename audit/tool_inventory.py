"""The tools a model can call, by the name it sees: framework, the effects each reaches (with
their tier), what governs it, and its findings (its path starts there, it is at the
registration, or an EMU's gap names the tool). Computed once by the pipeline from the sites,
edges and findings; the reports list it (a reviewer's first question is "what can the model
do here?").

Governance, per effect: `enforced` when an enforced authority edge (a decision call, an
approval) points at the tool's registration or at the effect; `advisory` when only advisory
authority does (a prompt or memory rule, another model's verdict); `none` otherwise, and always
`none` when an UNGOVERNED-PATH finding runs from the registration to the effect. The tool's
governance is its weakest effect's; a tool with no effect found says `no effect found`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.model import Edge, EdgeKind, Site, SiteKind
from topo.audit.contracts import UNKNOWN, ActionConnection
from topo.audit.graph.relations import Node
from topo.audit.model import Finding
from topo.audit.placement import Placement

__all__ = ["ENFORCED", "ADVISORY", "NONE", "NO_EFFECT", "ToolEffect", "Tool", "tool_inventory"]

ENFORCED, ADVISORY, NONE, NO_EFFECT = "enforced", "advisory", "none", "no effect found"
_WEAKEST = (NONE, ADVISORY, ENFORCED)        # a tool is as governed as its weakest effect
_UNGOVERNED = "UNGOVERNED-PATH"
# Client hints a registration may declare (MCP tool annotations): evidence, never authority.
_HINTS = ("read_only_hint", "destructive_hint", "idempotent_hint")


@dataclass(frozen=True, slots=True)
class ToolEffect:
    site: str                      # the executor site id
    callee: str
    tier: str
    file: str
    line: int
    governance: str                # ENFORCED / ADVISORY / NONE


@dataclass(frozen=True, slots=True)
class Tool:
    name: str                      # the name the model sees (UNKNOWN when not static)
    framework: str
    registrations: tuple[str, ...]  # tool_registration site ids; empty: named by an EMU only
    file: str | None               # the first registration's place
    line: int | None
    effects: tuple[ToolEffect, ...]
    governance: str                # ENFORCED / ADVISORY / NONE / NO_EFFECT
    findings: tuple[str, ...]      # fingerprints of findings whose path or place is the tool's
    hints: tuple[tuple[str, bool], ...] = ()   # what the registration claims (MCP annotations)


def tool_inventory(sites: tuple[Site, ...], edges: tuple[Edge, ...], nodes: Iterable[Node],
                   placement: Placement, findings: tuple[Finding, ...],
                   actions: Iterable[ActionConnection]) -> tuple[Tool, ...]:
    """Every registered tool, then every tool only an EMU names, by name. A registration
    that receives the model's output (an output validator) is an entry but no tool."""
    gaps = {action.key.removeprefix("tool_call."): {fp for fp, _ in action.gaps}
            for action in actions if action.kind == "tool_call"}
    by_id = {site.id: site for site in sites}
    advisory = {spot.node for spot in placement.nodes if spot.authority == ADVISORY}
    authority: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    executes: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        if edge.kind is EdgeKind.AUTHORITY:
            authority[edge.target].append((edge.source, dict(edge.attrs).get("enforced") is True))
        elif edge.kind is EdgeKind.EXECUTION and edge.target in by_id \
                and by_id[edge.target].kind is SiteKind.EXECUTOR:
            executes[edge.source].append(edge.target)
    groups: dict[str, list[Site]] = defaultdict(list)
    for site in sites:
        if site.kind is SiteKind.TOOL_REGISTRATION and site.attr("receives") != "output":
            for name in _exposed_names(site):
                groups[name].append(site)
    tools = [_tool(name, registered, by_id, executes, authority, advisory, findings,
                   gaps.get(name, set())) for name, registered in sorted(groups.items())]
    named = sorted({node.id.split(":", 1)[1] for node in nodes if node.kind == "tool"}
                   - set(groups))
    tools += [Tool(name, UNKNOWN, (), None, None, (), NO_EFFECT,
                   tuple(f.fingerprint for f in findings if f.fingerprint in gaps.get(name, ())))
              for name in named]
    return tuple(tools)


def _exposed_names(site: Site) -> tuple[str, ...]:
    """Its name; a tool placed under several keys by different callers, each of them."""
    if site.attr("tool_name"):
        return (str(site.attr("tool_name")),)
    return tuple(str(n) for n in site.attr("placed_names") or ()) or (f"{UNKNOWN} ({site.id})",)


def _tool(name: str, registered: list[Site], sites: dict[str, Site],
          executes: dict[str, list[str]], authority: dict[str, list[tuple[str, bool]]],
          advisory: set[str], findings: tuple[Finding, ...], gaps: set[str]) -> Tool:
    ids = tuple(site.id for site in registered)
    entered = [f for f in findings if _entered(f, ids, registered)]
    mine = [f for f in findings if f in entered or f.fingerprint in gaps
            or any(f.location.file == s.location.file and f.location.line == s.location.line
                   for s in registered)]
    ungoverned = {step for f in entered if f.code.id == _UNGOVERNED for step in f.path}
    effect_ids = dict.fromkeys(e for i in ids for e in executes.get(i, ()))
    effect_ids |= dict.fromkeys(step for f in entered for step in f.path
                                if step in sites and sites[step].kind is SiteKind.EXECUTOR)
    governing = [a for i in ids for a in authority.get(i, ())]
    effects = tuple(_effect(sites[e], [*governing, *authority.get(e, ())], advisory,
                            e in ungoverned) for e in effect_ids)
    first = registered[0]
    governance = min((e.governance for e in effects), key=_WEAKEST.index) if effects \
        else NO_EFFECT
    return Tool(name, str(first.attr("framework") or UNKNOWN), ids, first.location.file,
                first.location.line, effects, governance, tuple(f.fingerprint for f in mine),
                _hints(registered))


def _entered(finding: Finding, ids: tuple[str, ...], registered: list[Site]) -> bool:
    """Whether one of the finding's entries is the tool: its path starts at a registration,
    or a registration is among its related locations (one finding per effect keeps the other
    entries that reach the same executor there, not on the path)."""
    return bool(set(ids) & set(finding.path)) or \
        any(site.location in finding.related for site in registered)


def _hints(registered: list[Site]) -> tuple[tuple[str, bool], ...]:
    """The hints the registrations declare literally; registrations that disagree on one
    leave it out (unknown, not guessed)."""
    found = []
    for hint in _HINTS:
        values = {site.attr(hint) for site in registered if isinstance(site.attr(hint), bool)}
        if len(values) == 1:
            found.append((hint, values.pop()))
    return tuple(found)


def _effect(site: Site, governing: list[tuple[str, bool]], advisory: set[str],
            ungoverned: bool) -> ToolEffect:
    if ungoverned or not governing:
        governance = NONE
    elif any(enforced for _, enforced in governing):
        governance = ENFORCED
    elif any(source in advisory for source, _ in governing):
        governance = ADVISORY
    else:
        governance = NONE
    return ToolEffect(site.id, _effect_name(site), str(site.attr("tier") or UNKNOWN),
                      site.location.file, site.location.line, governance)


def _effect_name(site: Site) -> str:
    """The called API, or for an intent executor (no call) what it does: `send (stub or
    in-memory: returns_confirmation)`."""
    if site.attr("callee"):
        return str(site.attr("callee"))
    if site.attr("stub_or_in_memory"):
        return f"{site.attr('intent_verb') or UNKNOWN} (stub or in-memory: " \
               f"{site.attr('intent_evidence') or UNKNOWN})"
    return UNKNOWN

