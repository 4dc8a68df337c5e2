"""The graph's chain query: which call chains reach each executor, and what governs them.

A chain is a sequence of calls from an entry (a function nobody in the repo calls, a tool the
model invokes, a dispatch target, a function a job, queue, route or CLI runs even when code
calls it too) down to the executor call. Along it we collect:
- `enforced_by`: authority that does not come from the model — a guard or argument derived from
  a decision, approval or config gate; a Memrail-registered tool (it runs only when selected);
  a tool registration that requires approval, unless its approval callback approves by itself
  (an environment switch, or always: `failopen.py`); the human interrupts every path of a
  state graph passes from the nodes holding the model to the chain's node
  (`graph_approvals.py`);
- `origins`: model output that shapes the chain — model-derived executor arguments, guards on
  model-derived values, a model-invoked tool at the entry, a dispatcher choosing the function;
- `gates`: the threshold / model-branch sites among those guards (deepest first);
- `policies`: authority that is not a model among those guards (config gates: a setting, a
  flag, a role or tier, a database rule); it selects the effect but approves nothing a model
  proposes, so it never counts as `enforced_by`.
"Guarded" therefore means an enforced check dominates the executor on *that* chain, not that a
check appears somewhere in the function.

`reaching_chains` answers the query once per run, for every executor of the graph, as a typed
`Reach`; `executor_chains` is the walk behind it (a generator with a cutoff), for one site.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import networkx as nx

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.flow.derived import asked_verdicts, derivations, is_protocol_test
from topo.analyzers.flow.dispatched_tools import in_case
from topo.analyzers.flow.entrypoints import entry_of
from topo.analyzers.flow.facts import SourceFacts
from topo.analyzers.ir import MODULE_SCOPE, Call, FileIR, Guard, GuardKind, scope_chain
from topo.analyzers.flow.roles import function_node
from topo.audit.graph.build import callers, sites_of_kind
from topo.audit.graph.failopen import approval_switch
from topo.audit.graph.graph_approvals import GraphApprovals, graph_approvals
from topo.analyzers.model import EdgeKind, Site, SiteKind

__all__ = ["Hop", "Chain", "ChainLimits", "Reach", "reaching_chains", "executor_chains",
           "call_index"]

_GATES = (SiteKind.THRESHOLD, SiteKind.MODEL_BRANCH)
_NO_CONDITION = frozenset({GuardKind.TRY, GuardKind.EXCEPT, GuardKind.FINALLY})


@dataclass(frozen=True, slots=True)
class Hop:
    file: FileIR
    call: Call
    dispatcher: str | None = None      # the dispatcher site id, when this hop is a dispatch


@dataclass(frozen=True, slots=True)
class Chain:
    executor: Site
    hops: tuple[Hop, ...]              # entry-most first; the executor call is last (a
                                       # function executor has none of its own)
    entry: str                         # function node where the chain starts
    enforced_by: tuple[str, ...]
    origins: tuple[str, ...]
    gates: tuple[str, ...]
    fails_open: tuple[tuple[str, str], ...] = ()   # (registration id, switch): approvals
                                                    # that approve by themselves
    policies: tuple[str, ...] = ()     # config gates on the chain: configuration, flags, roles,
                                       # rules (authority that is not a model; never enforced_by)

    @property
    def governed(self) -> bool:
        return bool(self.enforced_by)

    @property
    def influenced(self) -> bool:
        return bool(self.origins)

    @property
    def path(self) -> tuple[str, ...]:
        """Site ids from proposal to effect: origins, gates, dispatchers, the executor."""
        dispatchers = tuple(h.dispatcher for h in self.hops if h.dispatcher)
        ordered = (*self.origins, *self.gates, *dispatchers, self.executor.id)
        return tuple(dict.fromkeys(ordered))


@dataclass(frozen=True, slots=True)
class ChainLimits:
    max_path: int = 8          # call hops followed back from an executor
    max_chains: int = 64       # call chains examined per executor


CallIndex = Mapping[str, tuple[FileIR, Call]]


def call_index(facts: SourceFacts) -> dict[str, tuple[FileIR, Call]]:
    """Every call of the repository by id, with the file that holds it."""
    return {call.id: (file, call) for file in facts.files for call in file.calls}


@dataclass(frozen=True, slots=True)
class _Index:
    gates_at: dict          # (file, line, column) -> gate site
    gates_in: dict          # function key -> gate site ids in it
    entry_tools: dict       # function key -> tool registration / action handler sites
    call_tools: dict        # call id -> registrations at that call (a tool that is its effect)
    fails_open: dict        # registration id -> the switch its approval callback approves on
    approvals: GraphApprovals   # human approvals decided between a graph's nodes
    entry_points: frozenset  # function nodes a job, queue, route or CLI runs (entrypoints.py)
    policy_at: dict          # (file, line, column) -> derived config gate (policy_gates.py)


@dataclass(frozen=True, slots=True)
class _Scope:
    """What one walk reads: the graph, the flow's facts, the call index and the limits."""

    graph: nx.MultiDiGraph
    facts: SourceFacts
    calls: CallIndex
    config: ChainLimits
    index: _Index


@dataclass(frozen=True, slots=True)
class Reach:
    """The answer of the chain query for one run: every executor's chains by site id."""

    by_executor: Mapping[str, tuple[Chain, ...]]
    _scope: _Scope = field(repr=False, compare=False)

    def of(self, executor: Site) -> tuple[Chain, ...]:
        """The chains to `executor`; a site that is not an executor of the graph (a call
        standing in for one) is walked on demand with the same limits."""
        known = self.by_executor.get(executor.id)
        return known if known is not None else tuple(_chains(self._scope, executor))


def reaching_chains(graph: nx.MultiDiGraph, facts: SourceFacts, *,
                    limits: ChainLimits = ChainLimits(),
                    calls: CallIndex | None = None) -> Reach:
    """Which chains reach each executor of `graph` and what governs them, computed once."""
    scope = _scope_of(graph, facts, calls, limits)
    executors = sites_of_kind(graph, SiteKind.EXECUTOR)
    return Reach({e.id: tuple(_chains(scope, e)) for e in executors}, scope)


def executor_chains(graph: nx.MultiDiGraph, facts: SourceFacts, executor: Site, *,
                    limits: ChainLimits = ChainLimits(),
                    calls: CallIndex | None = None) -> Iterator[Chain]:
    """Every call chain to `executor` (at most `limits.max_chains`, each at most
    `limits.max_path` hops), each with its evidence."""
    return _chains(_scope_of(graph, facts, calls, limits), executor)


def _scope_of(graph: nx.MultiDiGraph, facts: SourceFacts, calls: CallIndex | None,
           limits: ChainLimits) -> _Scope:
    return _Scope(graph, facts, call_index(facts) if calls is None else calls, limits,
                  _index(graph, facts))


def _index(graph: nx.MultiDiGraph, facts: SourceFacts) -> _Index:
    gates = list(sites_of_kind(graph, *_GATES))
    gates_in: dict[str, list[str]] = {}
    for gate in gates:
        gates_in.setdefault(gate.symbol, []).append(gate.id)
    entry_tools: dict[str, list[Site]] = {}
    call_tools: dict[str, list[Site]] = {}
    fails_open: dict[str, str] = {}
    for tool in sites_of_kind(graph, SiteKind.TOOL_REGISTRATION,
                              SiteKind.ACTION_HANDLER):
        entry_tools.setdefault(str(tool.attr("definition")), []).append(tool)
        if tool.attr("call") and not tool.attr("definition"):
            call_tools.setdefault(str(tool.attr("call")), []).append(tool)
        switch = approval_switch(facts, tool) if tool.kind is SiteKind.TOOL_REGISTRATION \
            and facts.knowledge.requires_approval(tool) else None
        if switch:
            fails_open[tool.id] = switch
    return _Index(
        {(g.location.file, g.location.line, g.location.column): g for g in gates},
        gates_in, entry_tools, call_tools, fails_open, graph_approvals(graph, facts),
        frozenset(function_node(key) for key in entry_of(facts.sites)),
        {(g.location.file, g.location.line, g.location.column): g.id
         for g in sites_of_kind(graph, SiteKind.CONFIG_GATE) if g.inferred})


def _chains(ctx: _Scope, executor: Site) -> Iterator[Chain]:
    found = ctx.calls.get(str(executor.attr("call")))
    if found is not None:
        file, call = found
        stack = [(function_node(function_key(file, call.scope)), (Hop(file, call),))]
    elif not executor.attr("call") and executor.attr("definition"):
        # An executor that is a whole function (an intent executor, flow/intent.py): the walk
        # starts at the function itself, with no call of its own.
        stack = [(function_node(str(executor.attr("definition"))), ())]
    else:
        return
    produced = 0
    while stack and produced < ctx.config.max_chains:
        function, hops = stack.pop()
        predecessors = [p for p in _predecessors(ctx, function)
                        if p.call.id not in {h.call.id for h in hops}]
        if not predecessors or len(hops) > ctx.config.max_path:
            for tools in _ways_in(ctx, executor, function, hops):
                produced += 1
                yield _evaluate(ctx, executor, hops, function, tools)
            continue
        if function in ctx.index.entry_points:
            # A job, consumer or route runs this function directly, whoever else calls it.
            produced += 1
            yield _evaluate(ctx, executor, hops, function, ())
        for hop in reversed(predecessors):
            stack.append((function_node(function_key(hop.file, hop.call.scope)), (hop, *hops)))


def _predecessors(ctx: _Scope, function: str) -> list[Hop]:
    hops = [Hop(*ctx.calls[call_id]) for _, call_id in callers(ctx.graph, function)
            if call_id in ctx.calls]
    dispatchers = sorted({source for source, _, data in ctx.graph.in_edges(function, data=True)
                          if data.get("kind") == EdgeKind.EXECUTION.value
                          and source.startswith("dispatcher:")})
    for source in dispatchers:
        dispatcher = ctx.graph.nodes[source]["site"]
        found = ctx.calls.get(str(dispatcher.attr("call")))
        if found is not None:
            hops.append(Hop(*found, dispatcher=dispatcher.id))
    return hops


def _ways_in(ctx: _Scope, executor: Site, entry: str,
             hops: tuple[Hop, ...]) -> list[tuple[Site, ...]]:
    """The registrations a chain starts from, one chain each: the same function registered
    twice (with approval in one file, without in another) is two ways in. A registration at
    the executor's own call (`codex_tool(...)`, whose effect is the library) is one too. A
    class registered by its base (`implements Editor`: some tool holds it) gives way to the
    calls seen handing it to a tool, which say how (`applyPatchTool({ editor, needsApproval })`)."""
    tools = [*ctx.index.entry_tools.get(entry.removeprefix("function:"), ()),
             *ctx.index.call_tools.get(str(executor.attr("call")), ())]
    tools = [tool for tool in tools if not tool.attr("base")] or tools
    if hops:    # one handler for every tool (flow/dispatched_tools.py): the branch passed
        tools = [tool for tool in tools if tool.kind is not SiteKind.TOOL_REGISTRATION
                 or in_case(hops[0].call, tool)]
    return [(tool,) for tool in tools] if len(tools) > 1 else [tuple(tools)]


def _evaluate(ctx: _Scope, executor: Site, hops: tuple[Hop, ...], entry: str,
              tools: tuple[Site, ...]) -> Chain:
    enforced: list[str] = []
    origins: list[str] = []
    gates: list[str] = []
    policies: list[str] = []
    index = ctx.index
    gate_sites = index.gates_at
    knowledge = ctx.facts.knowledge
    fails_open = [(tool.id, index.fails_open[tool.id]) for tool in tools
                  if tool.id in index.fails_open]
    for tool in tools:
        if knowledge.governed(tool) or (knowledge.requires_approval(tool)
                                        and tool.id not in index.fails_open):
            enforced.append(tool.id)
        elif tool.kind is SiteKind.TOOL_REGISTRATION:
            origins.append(tool.id)
    for hop in hops:
        facts = ctx.facts
        enforced.extend(sorted(facts.authority.argument_labels(hop.file, hop.call)))
        if hop.dispatcher:
            dispatcher = ctx.graph.nodes[hop.dispatcher]["site"]
            origins.extend(dispatcher.attr("origins") or ())
        for guard in hop.call.guards:
            if guard.kind in _NO_CONDITION or guard.condition is None:
                continue
            enforced.extend(sorted(facts.authority.condition_labels(
                hop.file, hop.call.scope, guard.condition)))
            policies.extend(_policies_of(ctx, hop, guard))
            labels = facts.model.condition_labels(hop.file, hop.call.scope, guard.condition)
            # Iterating over model output decides nothing by itself; what the loop passes on
            # shows up in the executor's arguments.
            if not labels or guard.kind is GuardKind.LOOP:
                continue
            found = _gates_of(ctx, hop.file, hop.call.scope, guard, gate_sites)
            # A guard that only tests the tool-call protocol (`stop_reason == "tool_use"`)
            # says the model asked for a tool, not which effect: it is no influence by itself.
            if found and all(is_protocol_test(ctx.graph.nodes[g]["site"]) for g in found):
                continue
            origins.extend(sorted(labels))
            gates.extend(found)
    if hops:    # the executor call, or the call into a function executor
        origins.extend(sorted(ctx.facts.model.argument_labels(hops[-1].file, hops[-1].call)))
        origins = [origin for origin in origins if _passed(ctx, origin, hops[0])]
    if index.approvals.graphs:
        _graph_evidence(ctx, entry, hops, enforced, origins, gates)
    return Chain(executor, hops, entry, tuple(dict.fromkeys(enforced)),
                 tuple(dict.fromkeys(origins)), tuple(dict.fromkeys(gates)), tuple(fails_open),
                 tuple(dict.fromkeys(policies)))


def _policies_of(ctx: _Scope, hop: Hop, guard: Guard) -> list[str]:
    """The config gates of one guard: flag and environment reads its condition reads, and the
    configuration, role and rule tests written in it."""
    found = []
    if ctx.facts.policy is not None:
        found += sorted(ctx.facts.policy.condition_labels(hop.file, hop.call.scope,
                                                          guard.condition))
    for comparison in guard.condition.comparisons if guard.condition else ():
        where = comparison.location
        gate = ctx.index.policy_at.get((where.file, where.line, where.column))
        if gate is not None:
            found.append(gate)
    return found


def _graph_evidence(ctx: _Scope, entry: str, hops: tuple[Hop, ...], enforced: list[str],
                    origins: list[str], gates: list[str]) -> None:
    """A chain that starts in a node of a state graph: the model tests of the routers that
    may select that node are its gates (what they read, its origins); model output from
    earlier nodes is approved when every graph path from the node holding the model to
    this one passes a node whose human decides (`graph_approvals.py`)."""
    approvals = ctx.index.approvals
    functions = (entry.removeprefix("function:"),
                 *(function_key(hop.file, hop.call.scope) for hop in hops))
    node = approvals.node_of(functions)
    if node is None:
        return
    for router in approvals.selecting_routers(node):
        for gate_id in ctx.index.gates_in.get(router, ()):
            gate = ctx.graph.nodes[gate_id]["site"]
            if not is_protocol_test(gate):
                gates.append(gate_id)
                origins.extend(gate.attr("origins") or ())
    if origins:
        enforced.extend(approvals.approving(functions, origins))


def _passed(ctx: _Scope, origin: str, first: Hop) -> bool:
    """Whether an origin can be this chain's: a tool that is one branch of a handler serving
    every tool only when the chain passes its branch."""
    site = ctx.graph.nodes[origin].get("site") if origin in ctx.graph else None
    return site is None or site.kind is not SiteKind.TOOL_REGISTRATION or \
        in_case(first.call, site)


def _gates_of(ctx: _Scope, file: FileIR, scope: str, guard: Guard,
              gate_sites: dict) -> list[str]:
    """Gate sites of one guard: a predicate function's own thresholds first (the deepest
    evidence, e.g. `should_refund` comparing the model's confidence), then the tests that
    derived a name the guard only asks (`approved = …` for `if approved:`), then the
    comparisons written in the guard itself."""
    inner: list[str] = []
    for call_id in guard.condition.calls if guard.condition else ():
        target = ctx.facts.graph.resolved.get(call_id)
        if target is not None:
            inner.extend(ctx.index.gates_in.get(target, ()))
    local = [gate_sites[(c.location.file, c.location.line, c.location.column)].id
             for c in (guard.condition.comparisons if guard.condition else ())
             if (c.location.file, c.location.line, c.location.column) in gate_sites]
    return [*sorted(inner), *_derivations(ctx, file, scope, guard), *local]


def _derivations(ctx: _Scope, file: FileIR, scope: str, guard: Guard) -> list[str]:
    """For `if approved:`, the tests that derived `approved` (`approved = bool(re.search(P,
    answer))`, `ok = s > 0.8`): the `if` only asks them."""
    if not asked_verdicts(guard.condition):
        return []
    gates = [ctx.graph.nodes[g]["site"] for candidate in scope_chain(scope)
             for g in ctx.index.gates_in.get(
                 file.module if candidate == MODULE_SCOPE else f"{file.module}.{candidate}", ())]
    return sorted(site.id for site in derivations(gates, file, scope, guard))
