"""Approval decided on a state graph: which human interrupts stand between a model and an
effect that run in different nodes of one graph (flow/graphs.py).

A node *approves* when a human-approval site in it (an `interrupt()`) decides where the graph
goes: under a branch on the human's answer (`if decision["action"] == "accept":`) the node
returns a command (`Command(goto="send")`), stops the run (`raise`), or writes a channel that
the router leaving the node tests (`return {"next": "send"}` with a router on `state.next`);
or the node stores the answer in such a channel (`{"approved": answer == "yes"}`). An
interrupt whose answer is only stored or passed on (a question, a notification), or whose
branches all lead on to the same next node, decides nothing, and one that declares that no
answer accepts (`allow_accept: False`, the `accepts` attribute) approves nothing.

A static breakpoint approves too: the graph pauses before each node of `interrupt_before` (every
path into it waits for the human) and after each node of `interrupt_after`.

An effect in node N is approved for a model output when every path of the graph from each
node that may produce that output (the node whose calls reach the inference) to N passes an
approving node other than N: removing the approving nodes leaves N unreachable. A model in N
itself, in no node of N's graphs, or in a node with no path to N, is not approved by the graph
(the node's own branches are the chain's business, audit/graph/chains.py).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import networkx as nx

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.flow.facts import SourceFacts
from topo.analyzers.flow.graphs import StateGraph, channel_key
from topo.analyzers.ir import Call, GuardKind, Value, ValueKind
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.paths import root_of
from topo.audit.graph.build import sites_of_kind

__all__ = ["GraphApprovals", "graph_approvals"]

_DECIDING = frozenset({GuardKind.IF, GuardKind.EARLY_EXIT, GuardKind.MATCH_CASE,
                       GuardKind.TERNARY})
_MAX_CALL_DEPTH = 8


@dataclass(frozen=True, slots=True)
class GraphApprovals:
    """Per run: the approving nodes of each graph and the functions each node's calls reach."""

    graphs: tuple[StateGraph, ...]
    approvers: Mapping[str, Mapping[str, tuple[str, ...]]]   # graph id -> node -> gate ids
    reaches: Mapping[str, frozenset[str]]                    # node function -> reached keys
    origins: Mapping[str, str]                               # inference site id -> function
    # graph id -> node -> the static breakpoints that pause the graph before it runs
    before: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    def node_of(self, functions: Iterable[str]) -> str | None:
        """The first of `functions` (entry-most first) that is a node of some graph."""
        return next((f for f in functions if any(f in dict(g.nodes).values()
                                                   for g in self.graphs)), None)

    def selecting_routers(self, node: str) -> tuple[str, ...]:
        """The router functions whose answer may select `node`: it is one of the nodes the
        router's source goes to, or follows one with no approving node between."""
        found: set[str] = set()
        for graph in self.graphs:
            targets = set(graph.node_names(node))
            if not targets:
                continue
            approvers = {**self.approvers.get(graph.id, {}), **self.before.get(graph.id, {})}
            for source, router in graph.routers:
                if any(_reaches(graph, after, targets, approvers)
                       for after in graph.after(source)):
                    found.add(router)
        return tuple(sorted(found))

    def approving(self, functions: Iterable[str], origins: Iterable[str]) -> tuple[str, ...]:
        """The approval sites through which every model output in `origins` reaches the
        first of `functions` (entry-most first) that is a graph node, or () when one of them
        reaches it some other way."""
        node = self.node_of(functions)
        origins = tuple(origins)
        if node is None or not origins:
            return ()
        used: set[str] = set()
        for origin in origins:
            found = self._approved(node, origin)
            if found is None:
                return ()
            used |= found
        return tuple(sorted(used))

    def _approved(self, node: str, origin: str) -> set[str] | None:
        """The approvals on every path from the nodes holding `origin` to `node`, in each
        graph holding both; None when a path has none or no graph holds the origin."""
        function = self.origins.get(origin)
        if function is None:
            return None          # not a model call (a tool the model invokes, …)
        used: set[str] = set()
        held = False
        for graph in self.graphs:
            targets = graph.node_names(node)
            if not targets:
                continue
            holders = [name for name, key in graph.nodes
                       if key is not None and _holds(self.reaches.get(key, frozenset()),
                                                     function)]
            for holder in holders:
                held = True
                for target in targets:
                    gates = _passes(graph, holder, target, self.approvers.get(graph.id, {}),
                                    self.before.get(graph.id, {}))
                    if gates is None:
                        return None
                    used |= gates
        return used if held and used else None


def graph_approvals(graph: nx.MultiDiGraph, facts: SourceFacts) -> GraphApprovals:
    """Computed once per run (the chain index holds it)."""
    graphs = facts.state_graphs.graphs
    if not graphs:
        return GraphApprovals((), {}, {}, {}, {})
    approvers = _interrupting_nodes(graph, facts)
    before: dict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)
    _add_breakpoints(graph, graphs, before, approvers)
    nodes = {key for built in graphs for _, key in built.nodes if key is not None}
    origins = {site.id: site.symbol for site in sites_of_kind(graph, SiteKind.INFERENCE)}
    return GraphApprovals(graphs, approvers, _reached(facts, nodes), origins, before)


def _interrupting_nodes(graph: nx.MultiDiGraph, facts: SourceFacts
                        ) -> dict[str, dict[str, tuple[str, ...]]]:
    """graph id -> node -> the human approvals in it whose answer decides the route."""
    gates = [site for site in sites_of_kind(graph, SiteKind.APPROVAL_GATE)
             if site.attr("call") and site.attr("accepts") is not False
             and site.attr("enforced") is not False]
    approvers: dict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)
    for built in facts.state_graphs.graphs:
        for name, key in built.nodes:
            mine = [gate for gate in gates if key is not None and _holds({key}, gate.symbol)]
            if not mine:
                continue
            tested = _router_channels(facts, built, name)
            found = _answer_routes(facts, mine, tested) | \
                _stored_answer(facts, key, mine, tested)
            if found:
                approvers[built.id][name] = tuple(sorted(found))
    return approvers


def _add_breakpoints(graph: nx.MultiDiGraph, graphs: tuple[StateGraph, ...],
                     before: dict[str, dict[str, tuple[str, ...]]],
                     after: dict[str, dict[str, tuple[str, ...]]]) -> None:
    """Static breakpoints (`interrupt_before` / `interrupt_after` of a compile step in the
    builder's file) by graph and node."""
    for site in sites_of_kind(graph, SiteKind.APPROVAL_GATE):
        for attribute, table in (("interrupt_before", before), ("interrupt_after", after)):
            names = site.attr(attribute)
            for built in graphs:
                if built.file != site.location.file or not isinstance(names, tuple):
                    continue
                for name in set(names) & set(dict(built.nodes)):
                    table[built.id][name] = tuple(sorted({*table[built.id].get(name, ()),
                                                          site.id}))


def _answer_routes(facts: SourceFacts, gates: list[Site], tested: set[str]) -> set[str]:
    """The gates whose answer a branch of their function takes to decide where the graph
    goes: under it the node returns a command, stops the run (`raise`), or writes a channel
    that the router leaving the node tests (`return {"next": "send"}`)."""
    decided: set[str] = set()
    for gate in gates:
        found = facts.graph.definitions.get(gate.symbol)
        if found is None:
            continue
        file, _ = found
        calls = {call.id: call for call in file.calls}
        for returned in file.returns:
            if function_key(file, returned.scope) != gate.symbol:
                continue
            routes = _routes(facts, returned.value, calls, tested)
            for guard in returned.guards:
                if guard.kind not in _DECIDING or gate.id not in \
                        facts.authority.condition_labels(file, returned.scope, guard.condition):
                    continue
                if routes or (guard.kind is GuardKind.EARLY_EXIT and guard.exits == "raise"):
                    decided.add(gate.id)
    return decided


def _routes(facts: SourceFacts, value: Value | None, calls: Mapping[str, Call],
            tested: set[str]) -> bool:
    """A returned value that says where the graph goes next."""
    if value is None:
        return False
    if value.kind is ValueKind.CALL:
        call = calls.get(value.call or "")
        return call is not None and facts.knowledge.graph_command(call.callee)
    return value.kind is ValueKind.DICT and any(key in tested for key, _ in value.entries)


def _router_channels(facts: SourceFacts, built: StateGraph, name: str) -> set[str]:
    """The channels the routers leaving node `name` test."""
    return {key for source, router in built.routers if source == name
            for key in _tested_channels(facts, router)}


def _stored_answer(facts: SourceFacts, function: str, gates: list[Site],
                   tested: set[str]) -> set[str]:
    """The gates whose answer node `function` stores in a channel (`{"approved": answer ==
    "yes"}`) that a router leaving the node tests (`if state["approved"]`)."""
    found = facts.graph.definitions.get(function)
    if found is None or not tested:
        return set()
    file, definition = found
    mine = {gate.id for gate in gates}
    decided: set[str] = set()
    for write, _ in facts.state_graphs.writes.get(file.path, ()):
        if write.scope == definition.qualname and write.key in tested:
            decided |= facts.authority.value_labels(file, write.scope, write.value) & mine
    return decided


def _tested_channels(facts: SourceFacts, router: str) -> set[str]:
    """The state channels a router's branches and returned values read."""
    found = facts.graph.definitions.get(router)
    reader = None if found is None else \
        facts.state_graphs.readers.get((found[0].path, found[1].qualname))
    if reader is None:
        return set()
    file, definition = found
    parameter = reader[0]
    reads: list[str] = []
    for returned in file.returns:
        if returned.scope == definition.qualname:
            reads.extend(returned.value.reads if returned.value is not None else ())
            reads.extend(returned.condition.reads if returned.condition else ())
            for guard in returned.guards:
                reads.extend(guard.condition.reads if guard.condition else ())
    return {key for path in reads if root_of(path) == parameter
            and (key := channel_key(path)) is not None}


def _reached(facts: SourceFacts, nodes: set[str]) -> dict[str, frozenset[str]]:
    """Each node function with every repo function its calls reach (a bounded walk)."""
    callees: dict[str, set[str]] = defaultdict(set)
    for edge in facts.graph.edges:
        callees[edge.caller].add(edge.callee)
    reached = {}
    for node in nodes:
        seen, frontier = {node}, [node]
        for _ in range(_MAX_CALL_DEPTH):
            frontier = [c for f in frontier for c in callees.get(f, ()) if c not in seen]
            seen.update(frontier)
            if not frontier:
                break
        reached[node] = frozenset(seen)
    return reached


def _holds(functions: Iterable[str], function: str) -> bool:
    """`function` is one of `functions` or nested in one (a lambda, an inner def)."""
    return any(function == key or function.startswith(key + ".") for key in functions)


def _reaches(graph: StateGraph, start: str, targets: set[str],
             approvers: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether a path from `start` (included) meets `targets` before any approving node."""
    seen, pending = {start}, deque([start])
    while pending:
        name = pending.popleft()
        if name in targets:
            return True
        if name in approvers:
            continue
        for after in graph.after(name):
            if after not in seen:
                seen.add(after)
                pending.append(after)
    return False


def _passes(graph: StateGraph, holder: str, target: str,
            approvers: Mapping[str, tuple[str, ...]],
            before: Mapping[str, tuple[str, ...]]) -> set[str] | None:
    """The approval sites every path from `holder` to `target` passes, or None when a path
    passes none (or `target` holds the model itself, or cannot be reached at all). A node
    the graph pauses before (`interrupt_before`) is approved on every path into it."""
    if holder == target:
        return None
    if target in before:
        return set(before[target])
    if holder in approvers:
        return set(approvers[holder])
    approvers = {**approvers, **before}
    used: set[str] = set()
    seen, pending = {holder}, deque([holder])
    while pending:
        for after in graph.after(pending.popleft()):
            if after == target:
                return None
            if after in seen:
                continue
            seen.add(after)
            if after in approvers:
                used.update(approvers[after])
            else:
                pending.append(after)
    return used or None
