"""What each decision point is wired to, computed once by the pipeline for the reports: where
it is called, which atoms and events feed it (seed 000 §5, atom contracts), who produces those
events, and whether the actions EMUs select have handlers (§6, action connectivity).

Values name sites by id, EMUs by key and findings by fingerprint; how to show them (locations,
`unknown`) is the reports' business.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import networkx as nx

from topo.analyzers.model import Edge, Site, SiteKind
from topo.audit.checks import AtomValue
from topo.audit.graph.build import EVIDENCE, INFERRED, KIND
from topo.audit.graph.relations import Relation, drawn_functions
from topo.audit.handlers import Handler, emu_destination, unfinished
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["UNKNOWN", "Contracts", "DecisionPoint", "InferredPoint", "AtomContract", "Caller",
           "Candidate", "EventNeed", "EventFlow", "EventConsumer", "ActionConnection",
           "EmuAction", "emu_action", "decision_contracts"]

UNKNOWN = "unknown"      # the name of a decision point nobody wrote down
ACTION_HANDLER_TYPES = ("route", "decision_prompt", "context_directive")
_GAP_CODES = ("ACTION-GAP", "COHERENCE-GAP")
_DISPATCHED = ("handled by a dispatcher branch in the application, not by a registered tool or "
               "SDK handler: no schema, version or project the executor checks")


@dataclass(frozen=True, slots=True)
class EmuAction:
    """The EMU action's type and target (`tool_call` + tool id and version), as written."""

    type: str | None
    tool_id: str | None
    version: str | None
    name: str | None


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    name: str
    calls: tuple[str, ...]          # decision_call site ids, in site order
    emus: tuple[str, ...]           # keys of the EMUs bound to it, sorted
    status: str


@dataclass(frozen=True, slots=True)
class InferredPoint:
    """A gate that decides effects with no decision engine, inferred by the graph."""

    name: str
    file: str | None
    symbol: str | None
    gates: tuple[str, ...]          # node ids binding it, sorted
    inputs: tuple[str, ...]         # node ids observed by it, sorted


@dataclass(frozen=True, slots=True)
class Caller:
    function: str                   # function node id
    file: str | None                # None when the report does not show the node


@dataclass(frozen=True, slots=True)
class Candidate:
    key: str                        # state key or tag kind
    atom: str | None                # the first atom site (by line) building it; None: absent
    type: str | None = None         # the value's type when the code declares it (not literal)
    domain: tuple[str, ...] | None = None   # the fixed set of strings it can take
    type_source: str | None = None  # validator | annotation | schema


@dataclass(frozen=True, slots=True)
class EventNeed:
    event: str
    producers: tuple[str, ...]      # site ids emitting it (emit calls, then event atoms)


@dataclass(frozen=True, slots=True)
class AtomContract:
    decision_point: str
    call: Site
    callers: tuple[Caller, ...]
    state: tuple[Candidate, ...]    # sorted by key
    tag: tuple[Candidate, ...]
    events: tuple[EventNeed, ...]   # the un-projected events its EMUs read, sorted


@dataclass(frozen=True, slots=True)
class EventConsumer:
    emu_key: str
    polarity: str
    window: str | None


@dataclass(frozen=True, slots=True)
class EventFlow:
    event: str
    producers: tuple[str, ...]      # site ids, sorted by file, line, id
    consumers: tuple[EventConsumer, ...]   # unique, by EMU key and polarity


@dataclass(frozen=True, slots=True)
class ActionConnection:
    """`tool_call.<tool_id>`, `route.<emu>`, … and how it is handled. `gaps` are the
    (fingerprint, code) of the ACTION-GAP / COHERENCE-GAP findings of the EMUs using it, so
    the status never disagrees with them."""

    key: str
    kind: str
    used_by: tuple[str, ...]
    version: str | None             # the last EMU's, when one says
    gaps: tuple[tuple[str, str], ...]
    registrations: tuple[str, ...]  # tool_registration site ids (tool_call only)
    executors: tuple[str, ...]      # executor sites those registrations execute
    handlers: tuple[str, ...] | None   # action_handler site ids (handler types only)
    status: str
    retry_policy: str | None = None        # the EMU's `tool.retry` (`none`, `fixed x3`, …)
    idempotency: str | None = None         # the EMUs' enabled idempotency scope keys
    timeout: str | None = None             # the EMU's `tool.timeout_ms`, else the handler's
    timeout_outcome: str | None = None     # what happens when that timeout fires
    outcome_events: tuple[str, ...] = ()   # events emitted after the handler's effects
    handler: Handler | None = None         # the function the action runs (tool_call only)
    incomplete: tuple[str, ...] = ()       # why every handler found cannot complete it


@dataclass(frozen=True, slots=True)
class Contracts:
    points: tuple[DecisionPoint, ...] = ()
    call_projects: tuple[tuple[str, str], ...] = ()   # (decision call id, Memrail project)
    inferred_points: tuple[InferredPoint, ...] = ()
    atom_contracts: tuple[AtomContract, ...] = ()
    events: tuple[EventFlow, ...] = ()
    actions: tuple[ActionConnection, ...] = ()


def emu_action(emu: Emu) -> EmuAction | None:
    action = emu.action if isinstance(emu.action, dict) else None
    if action is None:
        return None
    tool = action.get("tool") if isinstance(action.get("tool"), dict) else {}
    return EmuAction(_text(action.get("type")), _text(tool.get("tool_id")),
                     _text(tool.get("version")), _text(action.get("name")))


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class _Index:
    sites: dict[str, Site]
    incoming: dict[str, list[tuple[str, str]]]     # target -> (source, kind), edge order
    outgoing: dict[str, list[tuple[str, str]]]
    functions: frozenset[str]                      # the function nodes the report shows


def decision_contracts(sites: tuple[Site, ...], edges: tuple[Edge, ...],
                       relations: tuple[Relation, ...], graph: nx.MultiDiGraph,
                       emus: Iterable[Emu], findings: Iterable[Finding],
                       projects: Mapping[str, str] | None = None,
                       handlers: Mapping[str, Handler] | None = None,
                       values: Mapping[str, AtomValue] | None = None) -> Contracts:
    """The decision-point sections of TOPOLOGY_STATE, as facts; `relations` are the graph's
    shown structural edges (`shown_relations`), `projects` the Memrail project each decision
    call decides in, where the code says (its own `project=` or its client's); `handlers` the
    functions registrations hand actions to, by function key (`topo.audit.handlers`); `values`
    the type and domain the code declares for an atom's value, by atom site id."""
    emus = tuple(emus)
    index = _Index({s.id: s for s in sites}, defaultdict(list), defaultdict(list),
                   drawn_functions(graph, edges))
    for source, target, kind in [*((s, t, e.kind.value) for e in edges for s, t in e.pairs()),
                                 *((r.source, r.target, r.kind) for r in relations)]:
        index.incoming[target].append((source, kind))
        index.outgoing[source].append((target, kind))
    producers = _producers(sites)
    return Contracts(
        points=_points(sites, emus), call_projects=tuple(sorted((projects or {}).items())),
        inferred_points=_inferred_points(graph, relations),
        atom_contracts=tuple(_atom_contract(index, graph, call, emus, producers, values or {})
                             for call in _of_kind(sites, SiteKind.DECISION_CALL)),
        events=_event_flows(producers, emus),
        actions=_actions(index, sites, emus, findings, handlers or {}))


def _of_kind(sites: Iterable[Site], *kinds: SiteKind) -> list[Site]:
    return [site for site in sites if site.kind in kinds]


def _point_name(site: Site) -> str:
    point = site.attr("decision_point")
    return str(point) if point else UNKNOWN


def _points(sites: tuple[Site, ...], emus: tuple[Emu, ...]) -> tuple[DecisionPoint, ...]:
    calls: dict[str, list[str]] = defaultdict(list)
    for site in _of_kind(sites, SiteKind.DECISION_CALL):
        calls[_point_name(site)].append(site.id)
    bound: dict[str, list[str]] = defaultdict(list)
    for emu in emus:
        bound[emu.decision_point or UNKNOWN].append(emu.emu_key)
    return tuple(DecisionPoint(name, tuple(calls.get(name, ())),
                               tuple(sorted(bound.get(name, ()))),
                               _point_status(bool(calls.get(name)), bool(bound.get(name))))
                 for name in sorted(set(calls) | set(bound)))


def _point_status(called: bool, bound: bool) -> str:
    if called and bound:
        return "invoked and bound"
    if called:
        return "invoked; no EMU in the audited tree binds it"
    return "bound by EMUs; never invoked in the audited code"


def _inferred_points(graph: nx.MultiDiGraph, relations: tuple[Relation, ...]
                     ) -> tuple[InferredPoint, ...]:
    sources: dict[tuple[str, str], list[str]] = defaultdict(list)    # (target, kind) ->
    for relation in relations:
        sources[(relation.target, relation.kind)].append(relation.source)
    points = []
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        if data.get(KIND) != "decision_point" or not data.get(INFERRED):
            continue
        file, symbol, _ = data.get(EVIDENCE) or (None, None, None)
        points.append(InferredPoint(
            node.removeprefix("decision_point:"), file, symbol,
            tuple(sorted(sources.get((node, "binds"), ()))),
            tuple(sorted(sources.get((node, "observation"), ())))))
    return tuple(points)


def _atom_contract(index: _Index, graph: nx.MultiDiGraph, call: Site, emus: tuple[Emu, ...],
                   producers: dict[str, list[Site]],
                   values: Mapping[str, AtomValue]) -> AtomContract:
    point = call.attr("decision_point")
    atoms = [index.sites[a] for a, kind in index.incoming.get(call.id, ())
             if kind == "observation" and a in index.sites
             and index.sites[a].kind is SiteKind.ATOM]
    bound = [e for e in emus if point and e.decision_point == point]
    return AtomContract(
        _point_name(call), call, _callers(index, graph, call.symbol),
        _candidates(atoms, bound, "state", values), _candidates(atoms, bound, "tag", values),
        tuple(EventNeed(name, tuple(s.id for s in producers.get(name, ())))
              for name in _required(bound, "event")))


def _callers(index: _Index, graph: nx.MultiDiGraph, symbol: str) -> tuple[Caller, ...]:
    found = dict.fromkeys(c for c, kind in index.incoming.get(f"function:{symbol}", ())
                          if kind == "calls")
    return tuple(Caller(c, _shown_file(graph, c, index.functions)) for c in found)


def _shown_file(graph: nx.MultiDiGraph, node: str, functions: frozenset[str]) -> str | None:
    data = graph.nodes.get(node)
    if data is None or data.get(KIND) == "site" or \
            (data.get(KIND) == "function" and node not in functions):
        return None
    return (data.get(EVIDENCE) or (None,))[0]


def _candidates(atoms: list[Site], emus: list[Emu], kind: str,
                values: Mapping[str, AtomValue]) -> tuple[Candidate, ...]:
    found: dict[str, str | None] = {}
    for atom in sorted(atoms, key=lambda a: a.location.line):
        if atom.attr("kind") != kind or not atom.attr("key"):
            continue
        found.setdefault(str(atom.attr("key")), atom.id)
    for key in _required(emus, kind):
        found.setdefault(key, None)
    return tuple(_candidate(key, atom, values.get(atom or ""))
                 for key, atom in sorted(found.items()))


def _candidate(key: str, atom: str | None, value: AtomValue | None) -> Candidate:
    if value is None:
        return Candidate(key, atom)
    return Candidate(key, atom, value.type, value.domain, value.source)


def _required(emus: list[Emu], kind: str) -> list[str]:
    return sorted({d.key for e in emus for d in e.dependencies
                   if d.kind == kind and not d.project})


def _producers(sites: tuple[Site, ...]) -> dict[str, list[Site]]:
    """Event name → the sites that emit it (emit calls, and event atoms that are built). An
    event atom built in a function that emits the same event is that emit's argument, not a
    second producer: it is listed once, as the emit."""
    producers: dict[str, list[Site]] = defaultdict(list)
    for site in _of_kind(sites, SiteKind.EVENT_EMIT):
        for name in site.attr("event_names") or [site.attr("event_name")]:
            if name:
                producers[str(name)].append(site)
    emitted_in = {(name, s.location.file, s.symbol) for name, found in producers.items()
                  for s in found}
    for site in _of_kind(sites, SiteKind.ATOM):
        name = site.attr("key")
        if site.attr("kind") == "event" and name and \
                (str(name), site.location.file, site.symbol) not in emitted_in:
            producers[str(name)].append(site)
    return producers


def _event_flows(producers: dict[str, list[Site]], emus: tuple[Emu, ...]
                 ) -> tuple[EventFlow, ...]:
    consumers: dict[str, dict[EventConsumer, None]] = defaultdict(dict)
    for emu in emus:
        for d in emu.dependencies:
            if d.kind == "event":
                name = f"{d.project}.{d.key}" if d.project else d.key
                window = d.window.raw if d.window is not None and d.window.raw else None
                consumers[name].setdefault(EventConsumer(emu.emu_key, d.polarity, window))
    flows = []
    for name in sorted(set(producers) | set(consumers)):
        sites = sorted(producers.get(name, ()),
                       key=lambda s: (s.location.file, s.location.line, s.id))
        flows.append(EventFlow(name, tuple(s.id for s in sites), tuple(sorted(
            consumers.get(name, {}), key=lambda c: (c.emu_key, c.polarity)))))
    return tuple(flows)


def _actions(index: _Index, sites: tuple[Site, ...], emus: tuple[Emu, ...],
             findings: Iterable[Finding], handlers: Mapping[str, Handler]
             ) -> tuple[ActionConnection, ...]:
    gaps: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for finding in findings:
        if finding.code.id in _GAP_CODES and finding.emu_key:
            gaps[finding.emu_key].append((finding.fingerprint, finding.code.id))
    registrations: dict[str, list[Site]] = defaultdict(list)
    for site in _of_kind(sites, SiteKind.TOOL_REGISTRATION):
        if site.attr("tool_name"):
            registrations[str(site.attr("tool_name"))].append(site)
    uses: dict[str, tuple[str, str | None]] = {}
    used_by: dict[str, list[str]] = defaultdict(list)
    versions: dict[str, str] = {}
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for emu in emus:
        action = emu_action(emu)
        kind = (action.type if action else None) or UNKNOWN
        name = (action.tool_id if action else None) if kind == "tool_call" else emu.emu_key
        key = f"{kind}.{name or UNKNOWN}"
        uses.setdefault(key, (kind, name))
        used_by[key].append(emu.emu_key)
        if action is not None and action.version:
            versions[key] = action.version
        found[key].extend(gaps.get(emu.emu_key, []))
    for tool in registrations:
        uses.setdefault(f"tool_call.{tool}", ("tool_call", tool))
    by_key = {emu.emu_key: emu for emu in emus}
    connections = []
    for key, (kind, name) in sorted(uses.items()):
        using = [by_key[k] for k in used_by[key] if k in by_key]
        connection = _handled(_connection(index, sites, key, kind, name, registrations,
                                          used_by[key], versions.get(key), found[key]),
                              index, handlers, using)
        connections.append(replace(connection, **_execution_terms(index, connection, using)))
    return tuple(connections)


def _handled(connection: ActionConnection, index: _Index, handlers: Mapping[str, Handler],
             emus: list[Emu]) -> ActionConnection:
    """The real handler (the registered function, not the one registering it) and, when every
    handler found cannot complete the action, why: then the action is partially connected,
    whatever the ACTION-GAP finding's wording."""
    sites = [index.sites[s] for s in (*connection.registrations, *(connection.handlers or ()))]
    found = [handlers.get(str(s.attr("definition"))) for s in sites]
    destinations = {emu_destination(e) for e in emus} or {None}
    why = {reason: None for d in sorted(destinations, key=str)
           for reason in (unfinished(found, d) or (None, ()))[1]}
    handler = found[0] if connection.registrations and found else None
    if not sites and not connection.gaps and connection.status == "partially_connected":
        return replace(connection, incomplete=(_DISPATCHED,))
    if not (why and sites and connection.status == "missing"):
        return replace(connection, handler=handler)
    return replace(connection, handler=handler, incomplete=tuple(why),
                   status="partially_connected")


def _execution_terms(index: _Index, connection: ActionConnection, emus: list[Emu]) -> dict:
    """Retry, idempotency, timeout and timeout outcome as the EMUs using an action write them
    (seed 000 §6), the timeout else as the handler's registration does; None where nothing
    says, or where the EMUs disagree (then the EMUs are the place to look)."""
    retries = {_retry(e) for e in emus} - {None}
    scopes = {_scope(e) for e in emus} - {None}
    timeouts = {_timeout(e) for e in emus} - {None}
    outcomes = {_written_outcome(e) for e in emus} - {None}
    retry = retries.pop() if len(retries) == 1 else None
    timeout = timeouts.pop() if len(timeouts) == 1 else None
    if timeout is None and not timeouts:
        timeout = _registered_timeout(index, connection)
    outcome = outcomes.pop() if len(outcomes) == 1 else None
    if outcome is None and not outcomes and timeout and connection.kind == "tool_call":
        # The SDK executor ends a call that outlives its timeout as a failed execution
        # (ack `failed`); the EMU's retry policy says whether it runs again.
        outcome = "fails" + (f", then retried ({retry})" if retry and retry != "none"
                             else ", not retried" if retry == "none" else "")
    return {"retry_policy": retry, "idempotency": scopes.pop() if len(scopes) == 1 else None,
            "timeout": timeout, "timeout_outcome": outcome}


def _registered_timeout(index: _Index, connection: ActionConnection) -> str | None:
    """The `timeout_ms` the tool's registration gives its handler, when all of them agree."""
    found = {index.sites[s].attr("timeout_ms") for s in connection.registrations}
    value = found.pop() if len(found) == 1 else None
    return f"{value} ms (registration)" if isinstance(value, int) and \
        not isinstance(value, bool) else None


def _written_outcome(emu: Emu) -> str | None:
    """A `timeout_outcome` the EMU's action (or its metadata) writes, as seed 000 §6 names it."""
    metadata = emu.action.get("metadata")
    for holder in (emu.action, metadata if isinstance(metadata, dict) else {}):
        value = holder.get("timeout_outcome")
        if isinstance(value, str) and value:
            return value
    return None


def _tool(emu: Emu) -> dict:
    tool = emu.action.get("tool")
    return tool if isinstance(tool, dict) else {}


def _retry(emu: Emu) -> str | None:
    retry = _tool(emu).get("retry")
    if not isinstance(retry, dict) or not isinstance(retry.get("policy"), str):
        return None
    count = retry.get("max_retries")
    return retry["policy"] + (f", at most {count} retries"
                              if isinstance(count, int) and retry["policy"] != "none" else "")


def _scope(emu: Emu) -> str | None:
    idempotency = emu.policy.get("idempotency")
    if not isinstance(idempotency, dict) or idempotency.get("enabled") is not True:
        return None
    keys = [k for k in idempotency.get("scope") or () if isinstance(k, str)]
    return ", ".join(keys) if keys else None


def _timeout(emu: Emu) -> str | None:
    """`tool.timeout_ms`, or a human step's `timeout` (`24h`) on the action or its metadata."""
    value = _tool(emu).get("timeout_ms")
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value} ms"
    metadata = emu.action.get("metadata")
    for holder in (emu.action, metadata if isinstance(metadata, dict) else {}):
        written = holder.get("timeout")
        if isinstance(written, str) and written:
            return written
    return None


def _connection(index: _Index, sites: tuple[Site, ...], key: str, kind: str, name: str | None,
                registrations: dict[str, list[Site]], used_by: list[str], version: str | None,
                gaps: list[tuple[str, str]]) -> ActionConnection:
    registered: list[Site] = registrations.get(name or "", []) if kind == "tool_call" else []
    executors = tuple(t for s in registered for t, edge in index.outgoing.get(s.id, ())
                      if edge == "execution" and t in index.sites)
    handlers = tuple(s.id for s in _of_kind(sites, SiteKind.ACTION_HANDLER)
                     if s.attr("action_type") == kind) if kind in ACTION_HANDLER_TYPES else None
    codes = {code for _, code in gaps}
    if "ACTION-GAP" in codes:
        status = "missing"
    elif codes:
        status = "partially_connected"   # a coherence gap: handled, but in another project
    elif registered or handlers:
        status = "connected"
    else:
        # Handled by a dispatcher branch the checks accepted, but not a registered tool: the
        # report cannot point at a versioned executor.
        status = "partially_connected"
    events = sorted({str(index.sites[r].attr("event_name")) for e in executors
                     for r, edge in index.outgoing.get(e, ()) if edge == "recording"
                     and r in index.sites and index.sites[r].kind is SiteKind.EVENT_EMIT
                     and index.sites[r].attr("event_name")})
    return ActionConnection(key, kind, tuple(sorted(used_by)), version, tuple(gaps),
                            tuple(s.id for s in registered), executors, handlers, status,
                            outcome_events=tuple(events))
