"""Edges between sites: the five topology roles, plus the call edges between functions.

Function nodes are named `function:<module>.<qualname>`. Role edges:
- observation: an atom reaches a decision call's context (through lists and variables); a
               memory read or prompt policy (a Mubit lesson, a MemexAI prompt block) reaches a
               model call's arguments; an implicit injection (`mubit.learn.init()`) observes
               every model call in the process (`implicit=True`);
- inference:   a model call's output reaches a threshold, branch, dispatcher or an executor's
               arguments; one edge per consumer, its `origins` listed on it;
- authority:   a gate (decision result, approval, threshold, model branch, config flag) guards
               an executor; `enforced` says whether anything but the model decides; a
               Memrail `decide_and_execute` is the enforced authority over the registered
               tools it runs (of its project, when both name one); a config gate's edge
               carries its `authority_kind` (config, flag, role, rule): authority that is
               not a model, which selects the effect and approves nothing a model proposes;
- execution:   a dispatcher or a registered tool reaches an executor;
- recording:   an event emit or ack follows an executor in the same function.
Role edges here are intraprocedural; paths across functions are the authority graph's job.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import CallGraph
from topo.analyzers.flow.dataflow import Flow
from topo.analyzers.flow.derived import derivations
from topo.analyzers.flow.dispatched_tools import in_case
from topo.analyzers.ir import Call, FileIR, GuardKind, Value
from topo.analyzers.model import Edge, EdgeKind, Site, SiteKind
from topo.analyzers.packs import Knowledge

__all__ = ["RoleInput", "role_edges", "function_node", "decision_context"]

_GATES = frozenset({SiteKind.THRESHOLD, SiteKind.MODEL_BRANCH})
_CONSUMERS = frozenset({SiteKind.THRESHOLD, SiteKind.MODEL_BRANCH, SiteKind.DISPATCHER})
_RECORDERS = frozenset({SiteKind.EVENT_EMIT, SiteKind.ACK})


def function_node(key: str) -> str:
    return f"function:{key}"


@dataclass(frozen=True, slots=True)
class RoleInput:
    files: tuple[FileIR, ...]
    sites: tuple[Site, ...]
    graph: CallGraph
    model: Flow          # labels: inference / tool-parameter site ids
    atoms: Flow          # labels: atom site ids
    authority: Flow      # labels: decision / approval / config gate site ids
    memory: Flow | None = None   # labels: memory read / prompt policy site ids
    knowledge: Knowledge = Knowledge()   # the run's pack index (which tools are governed)
    policy: Flow | None = None   # labels: flag and environment read (config gate) site ids


def role_edges(data: RoleInput) -> tuple[Edge, ...]:
    """All edges, deduplicated and sorted."""
    files = {f.path: f for f in data.files}
    calls = {call.id: (files[path], call) for path, f in files.items() for call in f.calls}
    edges = {*_call_edges(data.graph), *_observation(data, calls), *_memory_observation(data, calls), *_inference(data, calls),
             *_authority(data, calls), *_decision_authority(data), *_execution(data), *_recording(data)}
    return tuple(sorted(edges, key=lambda e: (e.kind.value, e.source, e.target, e.attrs)))


def decision_context(call: Call) -> Value | None:
    """The value a decision call takes its atoms from: `context=`/`atoms=`, or the
    `context`/`atoms` key of a TS-style options object."""
    for name in ("context", "atoms"):
        value = call.kwarg(name)
        if value is not None:
            return value
    if call.args:
        return call.args[0].entry("context") or call.args[0].entry("atoms")
    return None


def _call_edges(graph: CallGraph) -> Iterator[Edge]:
    for edge in graph.edges:
        yield Edge(function_node(edge.caller), function_node(edge.callee), EdgeKind.CALLS,
                   (("call", edge.call),))


def _observation(data: RoleInput, calls: Mapping) -> Iterator[Edge]:
    atom_calls = {s.id: s.attr("call") for s in data.sites if s.kind is SiteKind.ATOM}
    for decision in _of_kind(data.sites, SiteKind.DECISION_CALL):
        found = calls.get(decision.attr("call"))
        if found is None:
            continue
        file, call = found
        labels = set(data.atoms.value_labels(file, call.scope, decision_context(call)))
        listed = decision.attr("atoms") or ()
        labels |= {a for a, atom_call in atom_calls.items() if atom_call in listed}
        for atom in sorted(labels & atom_calls.keys()):
            yield Edge(atom, decision.id, EdgeKind.OBSERVATION)


def _memory_observation(data: RoleInput, calls: Mapping) -> Iterator[Edge]:
    """Memory that reaches a model: as an argument (a lesson put in the prompt), or injected
    process-wide by instrumentation (`mubit.learn.init()` patches every client)."""
    if data.memory is None:
        return
    sources = {s.id: s for s in _of_kind(data.sites, SiteKind.MEMORY_READ,
                                          SiteKind.PROMPT_POLICY)}
    process_wide = [s for s in sources.values()
                    if s.kind.declares("injection") and s.attr("injection") == "process"]
    for model in _of_kind(data.sites, SiteKind.INFERENCE):
        if model.system in {s.system for s in sources.values()}:
            continue    # the memory system's own synthesis (recall's answer, optimize) is no target
        found = calls.get(model.attr("call"))
        if found is not None:
            file, call = found
            for source in sorted(data.memory.argument_labels(file, call) & sources.keys()):
                yield Edge(source, model.id, EdgeKind.OBSERVATION, (("via", "arguments"),))
        for source in process_wide:
            yield Edge(source.id, model.id, EdgeKind.OBSERVATION, (("implicit", True),))


def _inference(data: RoleInput, calls: Mapping) -> Iterator[Edge]:
    """One edge per consumer (topo-audit/2): its `origins` attribute lists, sorted, every
    model output that reaches it; the edge's source is the first of them. One edge per origin
    x consumer made 97 % of a large repository's edges; `Edge.pairs` expands them."""
    for site in data.sites:
        if site.kind in _CONSUMERS:
            origins, via = tuple(sorted(set(site.attr("origins") or ()))), ()
        elif site.kind is SiteKind.EXECUTOR:
            found = calls.get(site.attr("call"))
            if found is None:
                continue
            file, call = found
            origins = tuple(sorted(data.model.argument_labels(file, call)))
            via = (("via", "arguments"),)
        else:
            continue
        if origins:
            yield Edge(origins[0], site.id, EdgeKind.INFERENCE, (("origins", origins), *via))


def _authority(data: RoleInput, calls: Mapping) -> Iterator[Edge]:
    gates_at = {(s.location.file, s.location.line, s.location.column): s
                for s in data.sites if s.kind in _GATES}
    policy_at = {(s.location.file, s.location.line, s.location.column): s
                 for s in data.sites if s.kind is SiteKind.CONFIG_GATE}
    kinds = {s.id: str(s.attr("authority_kind") or "flag") for s in data.sites
             if s.kind is SiteKind.CONFIG_GATE}
    # Tests stored in a name (`approved = bool(re.search(P, answer))`) that `if approved:` asks.
    verdicts = [s for s in data.sites if s.kind in _GATES and s.attr("derives")]
    for site in _of_kind(data.sites, SiteKind.EXECUTOR, SiteKind.DISPATCHER):
        found = calls.get(site.attr("call"))
        if found is None:
            continue
        file, call = found
        for guard in call.guards:
            if guard.condition is None or guard.kind in (GuardKind.TRY, GuardKind.LOOP):
                continue
            for comparison in guard.condition.comparisons:
                where = comparison.location
                gate = gates_at.get((where.file, where.line, where.column))
                if gate is not None:
                    yield Edge(gate.id, site.id, EdgeKind.AUTHORITY, (("enforced", False),))
                policy = policy_at.get((where.file, where.line, where.column))
                if policy is not None and policy.inferred:
                    yield _policy_edge(policy.id, site.id, kinds)
            for gate in derivations(verdicts, file, call.scope, guard):
                yield Edge(gate.id, site.id, EdgeKind.AUTHORITY, (("enforced", False),))
            for gate in sorted(data.authority.condition_labels(file, call.scope,
                                                               guard.condition)):
                yield Edge(gate, site.id, EdgeKind.AUTHORITY, (("enforced", True),))
            if data.policy is not None:
                for gate in sorted(data.policy.condition_labels(file, call.scope,
                                                                guard.condition)):
                    yield _policy_edge(gate, site.id, kinds)


def _policy_edge(gate: str, target: str, kinds: Mapping[str, str]) -> Edge:
    """Enforced by code, and not a model's authority: its kind says which (config, flag…)."""
    return Edge(gate, target, EdgeKind.AUTHORITY,
                (("authority_kind", kinds.get(gate, "flag")), ("enforced", True)))


def _decision_authority(data: RoleInput) -> Iterator[Edge]:
    tools = [t for t in _of_kind(data.sites, SiteKind.TOOL_REGISTRATION)
             if data.knowledge.governed(t)]
    for decision in _of_kind(data.sites, SiteKind.DECISION_CALL):
        if decision.attr("executes") is not True:
            continue
        project = decision.attr("project")
        for tool in tools:
            projects = tool.attr("projects")
            if isinstance(project, str) and isinstance(projects, tuple) and \
                    project not in projects:
                continue
            yield Edge(decision.id, tool.id, EdgeKind.AUTHORITY, (("enforced", True),))


def _execution(data: RoleInput) -> Iterator[Edge]:
    executors = list(_of_kind(data.sites, SiteKind.EXECUTOR))
    by_symbol: dict[str, list[Site]] = defaultdict(list)
    for executor in executors:
        by_symbol[executor.symbol].append(executor)
    calls = _dispatched_calls(data)
    for tool in _of_kind(data.sites, SiteKind.TOOL_REGISTRATION, SiteKind.ACTION_HANDLER):
        for executor in by_symbol.get(str(tool.attr("definition") or tool.symbol), ()):
            call = calls.get(str(executor.attr("call")))
            if call is None or in_case(call, tool):
                yield Edge(tool.id, executor.id, EdgeKind.EXECUTION)
    for dispatcher in _of_kind(data.sites, SiteKind.DISPATCHER):
        for target in dispatcher.attr("targets") or ():
            key = target if target in data.graph.definitions else None
            if key is not None:
                yield Edge(dispatcher.id, function_node(key), EdgeKind.EXECUTION)
            for executor in executors:
                if executor.attr("callee") == target:
                    yield Edge(dispatcher.id, executor.id, EdgeKind.EXECUTION)


def _dispatched_calls(data: RoleInput) -> dict[str, Call]:
    """The calls by id, when some tool is a branch of a dispatching handler (whose executors
    belong to the branch they run in); empty otherwise."""
    if not any(site.kind is SiteKind.TOOL_REGISTRATION and site.attr("dispatch_case")
               for site in data.sites):
        return {}
    return {call.id: call for file in data.files for call in file.calls}


def _recording(data: RoleInput) -> Iterator[Edge]:
    recorders = list(_of_kind(data.sites, *_RECORDERS))
    for executor in _of_kind(data.sites, SiteKind.EXECUTOR):
        for recorder in recorders:
            if recorder.symbol == executor.symbol and \
                    recorder.location.file == executor.location.file and \
                    recorder.location.line > executor.location.line:
                yield Edge(executor.id, recorder.id, EdgeKind.RECORDING)


def _of_kind(sites: Iterable[Site], *kinds: SiteKind) -> Iterator[Site]:
    return (site for site in sites if site.kind in kinds)
