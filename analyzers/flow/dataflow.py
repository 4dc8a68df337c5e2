"""Label propagation over the IR: where the values produced at seed calls flow.

One engine answers two questions:
- which values are *model-derived* (seeds: inference calls, and the parameters of tools the model
  invokes, which the model fills in), followed through assignments, library calls
  (`json.loads(resp…)`, `data.get("confidence")`), returns and parameters across files;
- which atoms reach a decision call (seeds: atom builder calls), including atoms appended to a
  list that is later passed as `context=`.

Across the nodes of a state graph (flow/graphs.py) labels travel by state channel: a node's
returned `{"draft": text}` puts the labels of `text` on channel `draft` of its graphs, and a
read of `state["draft"]` / `state.draft` / `state.get("draft")` in a node or router of the same
graph gets them. Channels are keyed by their top-level name, so a model-written `draft` does not
make `state["to"]` model output; a read of the whole `state` gets every channel.

It is a may-analysis, flow-insensitive within a function and iterated to a fixed point: a label
on a value means *some* path may carry it there. Calls listed as barriers (decision calls,
approval gates) produce fresh values: a `decide()` fed model-derived atoms does not make its
selection model-derived.

The fixed point is reached with a worklist of statements, grouped by scope (a function's
body, a class body, a module's top level) and files callees first: a statement is read again
only when something it reads changed (a root name bound in its scope or an enclosing one, a
call result it reads, the summary of a function it calls, a graph channel of a node it is in).
A helper whose summary grows re-reads its calls, not their functions or files. Labels only
grow over a finite set, so the worklist empties; there is no pass cap to silently drop labels.
Parameters carry symbols, not their callers' labels (see `propagate`), so no caller's pass
makes a callee dirty.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from dataclasses import dataclass, field

from topo.analyzers.flow.callgraph import CallGraph, FunctionKey, function_key
from topo.analyzers.flow.graphs import ChannelWrite, StateGraphs, channel_key
from topo.analyzers.ir import (MODULE_SCOPE, Assignment, Call, Condition, Definition, DefinitionKind,
                               FileIR, LITERAL_KINDS, Return, Value, ValueKind, scope_chain)
from topo.analyzers.paths import root_of

__all__ = ["Seeds", "Flow", "FlowIndex", "flow_index", "propagate", "propagate_apart",
           "ELEMENT_CALLBACK_METHODS", "MUTATING_METHODS"]

Labels = frozenset[str]
_EMPTY: Labels = frozenset()
_STRING, _NUMBER, _BOOL, _NONE, _LAMBDA = (ValueKind.STRING, ValueKind.NUMBER, ValueKind.BOOL,
                                           ValueKind.NONE, ValueKind.LAMBDA)
assert LITERAL_KINDS == {_STRING, _NUMBER, _BOOL, _NONE}

# Methods that put their arguments into their receiver: `atoms.append(state(…))`.
MUTATING_METHODS = frozenset({"append", "extend", "insert", "update", "add", "setdefault",
                              "appendleft", "push", "unshift", "set"})
_SELF_NAMES = frozenset({"self", "cls"})
# Array methods that call a function on each element of their receiver: the function's first
# parameter is an element (`keys.map(key => MAP[key] || key)`, `items.some(i => …)`).
ELEMENT_CALLBACK_METHODS = frozenset({"map", "flatMap", "filter", "some", "every", "forEach",
                                      "find", "findIndex", "findLast", "findLastIndex"})


@dataclass(frozen=True, slots=True)
class Seeds:
    calls: Mapping[str, Labels] = field(default_factory=dict)
    parameters: Mapping[FunctionKey, Mapping[str, Labels]] = field(default_factory=dict)
    barriers: frozenset[str] = frozenset()
    graphs: StateGraphs = StateGraphs()     # state channels to follow between graph nodes


Channel = tuple[str, str]      # (graph id, top-level state key)


@dataclass(frozen=True, slots=True)
class Flow:
    """The fixed point. Mappings are read-only by convention; query through the methods."""

    calls: Mapping[str, Labels]
    names: Mapping[tuple[str, str], Mapping[str, Labels]]
    returns: Mapping[FunctionKey, Labels]
    # call id -> the builder steps chained on its result (`db.insert(t)` -> `.values(row)`)
    chained: Mapping[str, tuple[Call, ...]] = field(default_factory=dict)
    channels: Mapping[Channel, Labels] = field(default_factory=dict)
    # (file, qualname) of a graph node or router -> (its state parameter, its graphs)
    readers: Mapping[tuple[str, str], tuple[str, tuple[str, ...]]] = \
        field(default_factory=dict)
    # (file, function qualname) -> the names its body binds (`Definition.locals`)
    locals: Mapping[tuple[str, str], frozenset[str]] = field(default_factory=dict)

    def path_labels(self, file: FileIR, scope: str, path: str | None) -> Labels:
        """Labels of an access path read in `scope`: those of the innermost scope binding
        its root (enclosing scopes, then the module). A scope that binds the root ends the
        search even when its binding holds nothing."""
        if not path:
            return _EMPTY
        root = root_of(path)
        readers = self.readers
        local = self.locals
        for candidate in scope_chain(scope):
            if readers:
                reader = readers.get((file.path, candidate))
                if reader is not None and reader[0] == root:
                    return self._state_labels(reader[1], path) | \
                        self.names.get((file.path, candidate), {}).get(root, _EMPTY)
            bound = self.names.get((file.path, candidate), {})
            if root in bound:
                return bound[root]
            if root in local.get((file.path, candidate), ()):
                return _EMPTY
        return _EMPTY

    def _state_labels(self, graphs: tuple[str, ...], path: str) -> Labels:
        """A read of a graph's state: the channel its first key names, or every channel
        when the whole state (or a computed key) is read."""
        key = channel_key(path)
        if key is not None:
            return frozenset().union(*(self.channels.get((g, key), _EMPTY) for g in graphs))
        return frozenset().union(*(labels for (g, _), labels in self.channels.items()
                                   if g in graphs))

    def value_labels(self, file: FileIR, scope: str, value: Value | None) -> Labels:
        if value is None:
            return _EMPTY
        kind = value.kind
        if kind is ValueKind.CALL:
            return self.calls.get(value.call or "", _EMPTY)
        if kind is _STRING or kind is _NUMBER or kind is _BOOL or kind is _NONE \
                or kind is _LAMBDA:     # identity tests: enum hashing is slow, this runs a lot
            return _EMPTY
        if value.results and value.ref and root_of(value.ref).endswith("()"):
            # `interrupt(request)[0]`: what a call's result holds is the call's business (its
            # summary, or a barrier's fresh value), not the names read in its arguments.
            return frozenset().union(*(self.calls.get(r, _EMPTY) for r in value.results))
        # Joined as frozensets, not through a set: most values have one source or none, and
        # then its labels are returned as they are (no copy), which this hot path needs.
        labels = _EMPTY
        for read in value.reads:
            labels = _join(labels, self.path_labels(file, scope, read))
        calls = self.calls
        for result in value.results:
            labels = _join(labels, calls.get(result, _EMPTY))
        for _, entry in value.entries:
            labels = _join(labels, self.value_labels(file, scope, entry))
        return labels

    def argument_labels(self, file: FileIR, call: Call) -> Labels:
        """Labels of everything a call consumes: arguments, keyword arguments, receiver, and
        the arguments of builder steps chained on its result (`db.insert(t).values(row)`
        writes `row`; `.update(t).set(x).where(y)`)."""
        labels = self.receiver_labels(file, call)
        steps = _steps_after(call, self.chained) if call.id in self.chained else ()
        for step in (call, *steps):
            for value in step.args:
                labels = _join(labels, self.value_labels(file, step.scope, value))
            for _, value in step.kwargs:
                labels = _join(labels, self.value_labels(file, step.scope, value))
        return labels

    def receiver_labels(self, file: FileIR, call: Call) -> Labels:
        """Labels of what a method is called on: its receiver path, the names read in an
        expression receiver and the calls whose results it is."""
        labels = self.path_labels(file, call.scope, _keyed_receiver(call))
        for read in call.receiver_reads:
            labels = _join(labels, self.path_labels(file, call.scope, read))
        for result in call.receiver_results:
            labels = _join(labels, self.calls.get(result, _EMPTY))
        return labels

    def restricted(self, keep: Labels) -> Flow:
        """The flow of the labels in `keep` alone (what is left empty is dropped, as
        `propagate` drops it)."""
        def cut(table: Mapping[Any, Labels]) -> dict[Any, Labels]:
            # Labels wholly kept are shared with the joint flow, not copied.
            return {key: kept for key, labels in table.items()
                    if (kept := labels if labels <= keep else labels & keep)}
        names = {key: kept for key, bound in self.names.items() if (kept := cut(bound))}
        return Flow(cut(self.calls), names, cut(self.returns), self.chained,
                    cut(self.channels), self.readers, self.locals)

    def condition_labels(self, file: FileIR, scope: str, condition: Condition | None) -> Labels:
        if condition is None:
            return _EMPTY
        labels = set().union(*(self.path_labels(file, scope, read) for read in condition.reads))
        for call_id in condition.calls:
            labels |= self.calls.get(call_id, _EMPTY)
        return frozenset(labels)


def _join(labels: Labels, more: Labels) -> Labels:
    """`labels | more`, returning either one itself when it already holds the other."""
    if not more or more is labels:
        return labels
    if not labels:
        return more
    return labels | more


def _destructured(assignment: Assignment) -> Value:
    """`const { draft } = state` reads `state.draft` (a state channel), not all of `state`."""
    value, position = assignment.value, assignment.position
    if value.kind is ValueKind.NAME and value.ref and position and len(position) == 1 and \
            isinstance(position[0], str):
        path = f"{value.ref}.{position[0]}"
        return Value(ValueKind.NAME, path, ref=path, reads=(path,))
    return value


def _keyed_receiver(call: Call) -> str | None:
    """`state.get("draft")` reads what `state["draft"]` reads: the receiver with the key."""
    receiver = call.receiver
    if receiver and call.name == "get" and call.args and \
            call.args[0].kind is _STRING and isinstance(call.args[0].literal, str):
        return f"{receiver}[{call.args[0].literal!r}]"
    return receiver


@dataclass(frozen=True, slots=True)
class FlowIndex:
    """What every propagation over one program reads the same way: its parsed files, their
    statements and what each statement reads. Built once by `flow_index` and handed to each
    `propagate` over that program."""

    files: tuple[FileIR, ...]
    by_path: Mapping[str, FileIR]
    chained: Mapping[str, tuple[Call, ...]]
    statements: Mapping[str, _FileStatements]
    readers: _Readers
    locals: Mapping[tuple[str, str], frozenset[str]]   # `Flow.locals`
    # path -> the names its `import m` / `import m as n` bind: a module, not a value. Writing
    # into one (`st.session_state.x = …`) does not make the module model output, which would
    # make every call on it (`st.button(…)`) model output.
    modules: Mapping[str, frozenset[str]] = field(default_factory=dict)


def flow_index(files: Iterable[FileIR], graph: CallGraph) -> FlowIndex:
    files = tuple(f for f in files if f.parse_error is None)
    chained = _chained(files)
    statements = {file.path: _file_statements(file, chained) for file in files}
    return FlowIndex(files, {file.path: file for file in files}, chained, statements,
                     _readers(files, graph, statements), _locals(files),
                     {file.path: frozenset(item.alias for item in file.imports
                                           if item.name is None) for file in files})


def _locals(files: tuple[FileIR, ...]) -> dict[tuple[str, str], frozenset[str]]:
    return {(file.path, definition.qualname): frozenset(definition.locals)
            for file in files for definition in file.definitions if definition.locals}


def propagate(files: Iterable[FileIR], graph: CallGraph, seeds: Seeds,
              index: FlowIndex | None = None) -> Flow:
    """Run label propagation to a fixed point over all files (`index`: their `flow_index`,
    when several propagations share it).

    Phase 1 summarises: each parameter carries only its own symbol (and the labels its seeds
    give it), so what a function returns says which parameters flow there; a call's result is
    that summary with the symbols replaced by what *this* call passes. Phase 2 gives each
    parameter symbol the labels its callers pass, and the flow is reported with symbols
    expanded: inside a helper a name still carries what any caller may pass, but a helper's
    result at one call site carries only that call's arguments.
    """
    if not seeds.calls and not seeds.parameters:    # nothing to follow: every label is empty
        if index is None:
            parsed = tuple(f for f in files if f.parse_error is None)
            return Flow({}, {}, {}, _chained(parsed), {}, seeds.graphs.readers,
                        _locals(parsed))
        return Flow({}, {}, {}, index.chained, {}, seeds.graphs.readers, index.locals)
    index = flow_index(files, graph) if index is None else index
    statements = _with_writes(index, seeds.graphs)
    state = _State(seeds, statements, index.readers, index.chained, index.locals,
                   index.modules)
    # Labels start at the seeded calls and at parameters (their symbols and seeds): only the
    # statements reading those are read first, and every other one when something it reads
    # changes (a statement reading only empty values adds nothing). Files callees first, so
    # that most summaries are ready when their calls are read; a file's scopes outermost
    # first. Any order reaches the same fixed point.
    for path in _bottom_up(index.by_path, graph, index.readers):
        known = statements[path]
        starts = {number for call in known.results.keys() & seeds.calls.keys()
                  for number in known.results[call]}
        starts.update(known.definitions)
        for number in sorted(starts):
            state.mark(path, number)
    pending = state.pending
    while pending:
        path = pending.popleft()
        state.queued.discard(path)
        _pass(index.by_path[path], statements[path].statements, graph, state)
    return _expanded(index.files, graph, state)


def _expanded(files: tuple[FileIR, ...], graph: CallGraph, state: _State) -> Flow:
    """The flow of a fixed point, parameter symbols replaced by what callers pass."""
    expand = _Expansion(_parameter_labels(files, graph, state))
    # Only what carries a label is kept: most names held nothing but a symbol no caller fed.
    names = {}
    for key, bound in state.names.items():
        kept = {root: labels for root, value in bound.items() if (labels := expand(value))}
        if kept:
            names[key] = kept
    return Flow(_nonempty(state.calls, expand), names, _nonempty(state.returns, expand),
                state.chained, _nonempty(state.channels, expand), state.seeds.graphs.readers,
                state.view.locals)


def propagate_apart(files: Iterable[FileIR], graph: CallGraph,
                    flows: Mapping[str, Mapping[str, Labels]],
                    index: FlowIndex | None = None) -> dict[str, Flow]:
    """Several flows seeded at calls, in one fixed point: labels only ever join, so the
    joint flow restricted to one flow's seed labels is that flow run alone, at the cost of
    one pass over the program instead of one per flow."""
    joint: dict[str, Labels] = {}
    for calls in flows.values():
        for call, labels in calls.items():
            joint[call] = joint.get(call, _EMPTY) | labels
    flow = propagate(files, graph, Seeds(calls=joint), index)
    return {name: flow.restricted(frozenset().union(*calls.values()))
            for name, calls in flows.items()}


def _nonempty(table: Mapping[str, Labels], expand: Callable[[Labels], Labels]
              ) -> dict[str, Labels]:
    return {key: labels for key, value in table.items() if (labels := expand(value))}


_SYMBOL = "#param:"     # `#param:<function key>:<name>`: no site id starts with `#`


def _symbol(function: FunctionKey, name: str) -> str:
    return f"{_SYMBOL}{function}:{name}"


Statement = Definition | Assignment | Call | Return | tuple[ChannelWrite, tuple[str, ...]]
Reader = tuple[str, int]    # a statement: its file and its number there


@dataclass(frozen=True, slots=True)
class _FileStatements:
    """A file's statements in the order a pass reads them (scopes outermost first, each
    scope's in source order), and which statements read what: the worklist reads a statement
    again only when something it reads has changed. Per file, not per scope: the tables of
    a million-line program stay a few tens of MB."""

    statements: tuple[Statement, ...]
    scopes: tuple[str, ...]                     # the scope each statement is read in
    names: Mapping[str, tuple[int, ...]]        # root name -> the statements reading it
    results: Mapping[str, tuple[int, ...]]      # call id -> the statements reading its result
    definitions: tuple[int, ...]                # the statements binding parameters

    def reading(self, bound_in: str, root: str) -> Iterator[int]:
        """The statements whose read of `root` may resolve to its binding in scope
        `bound_in`: those reading it in that scope or a scope nested in it."""
        scopes = self.scopes
        for number in self.names.get(root, ()):
            if _encloses(bound_in, scopes[number]):
                yield number


def _encloses(outer: str, scope: str) -> bool:
    """`scope` is `outer` or nested in it (`outer` is in `scope_chain(scope)`)."""
    return outer == MODULE_SCOPE or scope == outer or (
        scope.startswith(outer) and scope[len(outer):len(outer) + 1] == ".")


def _file_statements(file: FileIR, chained: Mapping[str, tuple[Call, ...]],
                     writes: Iterable[tuple[ChannelWrite, tuple[str, ...]]] = ()
                     ) -> _FileStatements:
    """`file`'s statements, then its graph-channel `writes` (each read in its node's scope):
    after all the others, so that a statement keeps its number with or without them (the
    run's `_Readers` name statements by number)."""
    by_scope: dict[str, list[Statement]] = defaultdict(list)
    for definition in file.definitions:
        by_scope[definition.qualname].append(definition)
    for items in (file.assignments, file.calls, file.returns):
        for item in items:
            by_scope[item.scope].append(item)
    statements: list[Statement] = []
    scopes: list[str] = []
    for scope in sorted(by_scope, key=_outermost_first):
        statements.extend(by_scope[scope])
        scopes.extend(scope for _ in by_scope[scope])
    for write in writes:
        statements.append(write)
        scopes.append(write[0].scope)
    names: dict[str, list[int]] = defaultdict(list)
    results: dict[str, list[int]] = defaultdict(list)
    for number, statement in enumerate(statements):
        read_names, read_calls = _reads(statement, chained)
        for root in read_names:
            names[root].append(number)
        for call in read_calls:
            results[call].append(number)
    return _FileStatements(tuple(statements), tuple(scopes),
                           {root: tuple(found) for root, found in names.items()},
                           {call: tuple(found) for call, found in results.items()},
                           tuple(number for number, statement in enumerate(statements)
                                 if isinstance(statement, Definition)))


def _outermost_first(scope: str) -> tuple[bool, int, str]:
    return scope != MODULE_SCOPE, scope.count("."), scope


def _with_writes(index: FlowIndex, graphs: StateGraphs) -> Mapping[str, _FileStatements]:
    """The files' statements with the graph-channel writes of `graphs` (a propagation that
    follows no graph reads none)."""
    if not graphs.writes:
        return index.statements
    extended = dict(index.statements)
    for path, writes in graphs.writes.items():
        if path in index.by_path:
            extended[path] = _file_statements(index.by_path[path], index.chained, writes)
    return extended


def _reads(statement: Statement, chained: Mapping[str, tuple[Call, ...]]
           ) -> tuple[set[str], set[str]]:
    """The root names and the call results a statement's pass reads (`_pass`, `_call`)."""
    names: set[str] = set()
    calls: set[str] = set()
    values: list[Value | None]
    if isinstance(statement, Call):
        if statement.receiver:
            names.add(statement.receiver)
        names.update(statement.receiver_reads)
        calls.update(statement.receiver_results)
        values = [*statement.args, *(v for _, v in statement.kwargs)]
        for step in _steps_after(statement, chained):   # as argument_labels reads them
            values.extend((*step.args, *(v for _, v in step.kwargs)))
    elif isinstance(statement, Assignment):
        values = [_destructured(statement)]
    elif isinstance(statement, Return):
        values = [statement.value]
    elif isinstance(statement, tuple):
        values = [statement[0].value]
    else:
        values = []
    while values:
        value = values.pop()
        if value is None:       # a bare `return`
            continue
        names.update(value.reads)
        if value.call:
            calls.add(value.call)
        calls.update(value.results)
        values.extend(entry for _, entry in value.entries)
    return {root_of(path) for path in names}, calls


def _steps_after(call: Call, chained: Mapping[str, tuple[Call, ...]]) -> list[Call]:
    """The builder steps chained on a call's result, at any depth (`.values(row)`)."""
    steps: list[Call] = []
    pending, seen = [call.id], {call.id}
    while pending:
        for after in chained.get(pending.pop(), ()):
            if after.id not in seen:
                seen.add(after.id)
                steps.append(after)
                pending.append(after.id)
    return steps


@dataclass(frozen=True, slots=True)
class _Readers:
    """Which statements read what another statement's pass may change."""

    callers: Mapping[FunctionKey, tuple[str, ...]]  # function -> files calling it
    calling: Mapping[FunctionKey, tuple[Reader, ...]]  # function -> the calls of it
    # function written as a call's argument -> those calls (their results read its returns)
    callbacks: Mapping[FunctionKey, tuple[Reader, ...]] = field(default_factory=dict)


def _bottom_up(by_path: Mapping[str, FileIR], graph: CallGraph, readers: _Readers
               ) -> list[str]:
    """File paths, each after the files it calls into (cycles broken in path order)."""
    calls_into: dict[str, set[str]] = defaultdict(set)
    for function, callers in readers.callers.items():
        callee = graph.definitions.get(function)
        if callee is not None:
            for caller in callers:
                if caller != callee[0].path:
                    calls_into[caller].add(callee[0].path)
    order: list[str] = []
    state: dict[str, int] = {}       # 1: on the stack, 2: done
    for start in by_path:
        if start in state:
            continue
        stack = [(start, iter(sorted(calls_into.get(start, ()))))]
        state[start] = 1
        while stack:
            path, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                state[path] = 2
                order.append(path)
            elif child not in state and child in by_path:
                state[child] = 1
                stack.append((child, iter(sorted(calls_into.get(child, ())))))
    return order


def _chained(files: tuple[FileIR, ...]) -> dict[str, tuple[Call, ...]]:
    """Builder steps: a call made directly on another call's result (`x.f(a).g(b)`)."""
    chained: dict[str, list[Call]] = defaultdict(list)
    for file in files:
        for call in file.calls:
            if call.chained_on is not None:
                chained[call.chained_on].append(call)
    return {key: tuple(steps) for key, steps in chained.items()}


def _readers(files: tuple[FileIR, ...], graph: CallGraph,
             statements: Mapping[str, _FileStatements]) -> _Readers:
    call_readers: dict[str, Reader] = {}
    for path, known in statements.items():
        for number, statement in enumerate(known.statements):
            if isinstance(statement, Call):
                call_readers[statement.id] = (path, number)
    callers: dict[FunctionKey, set[str]] = defaultdict(set)
    calling: dict[FunctionKey, set[Reader]] = defaultdict(set)
    for edge in graph.edges:
        reader = call_readers.get(edge.call)
        if reader is not None:
            callers[edge.callee].add(reader[0])
            calling[edge.callee].add(reader)
    callbacks: dict[FunctionKey, set[Reader]] = defaultdict(set)
    for file in files:
        for call in file.calls:
            for value in (*call.args, *(v for _, v in call.kwargs)):
                if value.kind is _LAMBDA and value.ref:
                    callbacks[function_key(file, value.ref)].add(call_readers[call.id])
    return _Readers({k: tuple(sorted(v)) for k, v in callers.items()},
                    {k: tuple(sorted(v)) for k, v in calling.items()},
                    {k: tuple(sorted(v)) for k, v in callbacks.items()})


class _State:
    """Mutable accumulation for one `propagate` run (never escapes it)."""

    def __init__(self, seeds: Seeds, statements: Mapping[str, _FileStatements],
                 readers: _Readers, chained: Mapping[str, tuple[Call, ...]],
                 local: Mapping[tuple[str, str], frozenset[str]],
                 modules: Mapping[str, frozenset[str]]) -> None:
        self.seeds = seeds
        self.statements = statements
        self.readers = readers
        self.chained = chained
        self.calls: dict[str, Labels] = defaultdict(lambda: _EMPTY, seeds.calls)
        self.names: dict[tuple[str, str], dict[str, Labels]] = defaultdict(dict)
        self.returns: dict[FunctionKey, Labels] = defaultdict(lambda: _EMPTY)
        self.channels: dict[Channel, Labels] = {}
        # One view for the whole run: it reads the tables above, which only grow.
        self.view = Flow(self.calls, self.names, self.returns, self.chained, self.channels,
                         seeds.graphs.readers, local)
        # The worklist: files with statements to read again, and which statements.
        self.pending: deque[str] = deque()
        self.queued: set[str] = set()
        self.dirty: dict[str, set[int]] = defaultdict(set)
        self.modules = modules     # FlowIndex.modules
        # The statement being read: a change it makes to a later statement of the same pass
        # needs no second reading.
        self.path: str | None = None
        self.number = -1
        self.batch: frozenset[int] = frozenset()

    def mark(self, path: str, number: int) -> None:
        if path == self.path and number > self.number and number in self.batch:
            return
        self.dirty[path].add(number)
        if path not in self.queued:
            self.queued.add(path)
            self.pending.append(path)

    def mark_all(self, path: str) -> None:
        for number in range(len(self.statements[path].statements)):
            self.mark(path, number)

    def add_channel(self, channel: Channel, labels: Labels) -> None:
        known = self.channels.get(channel, _EMPTY)
        if labels and not labels <= known:
            self.channels[channel] = known | labels
            for path in self.seeds.graphs.reader_files.get(channel[0], ()):
                if path in self.statements:
                    self.mark_all(path)

    def add_name(self, key: tuple[str, str], root: str, labels: Labels) -> None:
        if labels and not labels <= self.names[key].get(root, _EMPTY):
            self.names[key][root] = self.names[key].get(root, _EMPTY) | labels
            path = key[0]
            for number in self.statements[path].reading(key[1], root):
                self.mark(path, number)

    def add_call(self, path: str, call_id: str, labels: Labels) -> None:
        """A call's result grew: what reads it is in the call's own file."""
        if labels and not labels <= self.calls[call_id]:
            self.calls[call_id] = self.calls[call_id] | labels
            for number in self.statements[path].results.get(call_id, ()):
                self.mark(path, number)

    def add_return(self, function: FunctionKey, labels: Labels) -> None:
        if labels and not labels <= self.returns[function]:
            self.returns[function] = self.returns[function] | labels
            for path, number in self.readers.calling.get(function, ()):
                self.mark(path, number)
            for path, number in self.readers.callbacks.get(function, ()):
                self.mark(path, number)


def _pass(file: FileIR, statements: tuple[Statement, ...], graph: CallGraph,
          state: _State) -> None:
    """Read again the statements of `file` marked dirty, in order."""
    batch = state.dirty.pop(file.path)
    state.path, state.batch = file.path, frozenset(batch)
    view = state.view
    for number in sorted(batch):
        state.number = number
        statement = statements[number]
        if isinstance(statement, Call):
            _call(file, statement, graph, state, view)
        elif isinstance(statement, Assignment):
            root = root_of(statement.target)
            if root != statement.target and root in state.modules.get(file.path, ()):
                continue        # a write into a module (`st.session_state.x = …`)
            labels = view.value_labels(file, statement.scope, _destructured(statement))
            state.add_name((file.path, statement.scope), root, labels)
        elif isinstance(statement, Return):
            state.add_return(function_key(file, statement.scope),
                             view.value_labels(file, statement.scope, statement.value))
        elif isinstance(statement, Definition):
            key = function_key(file, statement.qualname)
            seeded = state.seeds.parameters.get(key, {})
            called = key in state.readers.callers  # else a symbol would never be fed or replaced
            for parameter in statement.parameters:
                labels = seeded.get(parameter.name, _EMPTY)
                if called:
                    labels = labels | {_symbol(key, parameter.name)}
                state.add_name((file.path, statement.qualname), parameter.name, labels)
        else:
            write, graphs = statement
            labels = view.value_labels(file, write.scope, write.value)
            for graph_id in graphs:
                state.add_channel((graph_id, write.key), labels)
    state.path = None


def _call(file: FileIR, call: Call, graph: CallGraph, state: _State, view: Flow) -> None:
    if call.receiver and call.name in MUTATING_METHODS and \
            root_of(call.receiver) not in state.modules.get(file.path, ()):
        arguments = frozenset().union(*(view.value_labels(file, call.scope, v)
                                        for v in (*call.args, *(v for _, v in call.kwargs))))
        state.add_name((file.path, _binding_scope(file, call.scope, call.receiver, view)),
                       root_of(call.receiver), arguments)
    if call.id in state.seeds.barriers:
        return
    target = graph.target(call)
    if target is None:
        # A library call: its result is derived from what it consumed, and from what the
        # callbacks it is handed return (`KEYWORDS.some(k => text.includes(k))`).
        state.add_call(file.path, call.id, view.argument_labels(file, call)
                       | _callback_returns(file, call, state))
        if call.receiver and call.name in ELEMENT_CALLBACK_METHODS:
            _element_parameters(file, call, graph, state, view)
        return
    summary = state.returns.get(target, _EMPTY)
    if not summary:
        return
    prefix = f"{_SYMBOL}{target}:"
    if not any(label.startswith(prefix) for label in summary):
        state.add_call(file.path, call.id, summary)
        return
    passed = _bindings(file, call, target, graph, view)
    labels = set()
    for label in summary:
        if label.startswith(prefix):
            labels |= passed.get(label[len(prefix):], _EMPTY)
        else:
            labels.add(label)
    state.add_call(file.path, call.id, frozenset(labels))


def _callback_returns(file: FileIR, call: Call, state: _State) -> Labels:
    """What the functions written as a library call's arguments return (`arr.some(k =>
    text.includes(k))`): the call's result is computed from them."""
    labels: Labels = _EMPTY
    for value in (*call.args, *(v for _, v in call.kwargs)):
        if value.kind is _LAMBDA and value.ref:
            labels = labels | state.returns.get(function_key(file, value.ref), _EMPTY)
    return labels


def _element_parameters(file: FileIR, call: Call, graph: CallGraph, state: _State,
                        view: Flow) -> None:
    """`receiver.map(fn)`: the first parameter of a function written as the argument holds
    an element of the receiver, so it carries the receiver's labels."""
    labels = view.receiver_labels(file, call)
    if not labels:
        return
    for value in call.args[:1]:
        if value.kind is not _LAMBDA or not value.ref:
            continue
        found = graph.definitions.get(function_key(file, value.ref))
        if found is not None and found[1].parameters:
            state.add_name((file.path, value.ref), found[1].parameters[0].name, labels)


def _bindings(file: FileIR, call: Call, target: FunctionKey, graph: CallGraph,
              view: Flow) -> dict[str, Labels]:
    """What this call passes to each parameter of `target` (labels in the caller's terms)."""
    _, definition = graph.definitions[target]
    parameters = list(definition.parameters)
    if (definition.kind is DefinitionKind.METHOD and parameters
            and parameters[0].name in _SELF_NAMES):
        parameters = parameters[1:]
    passed: dict[str, Labels] = {}

    def give(name: str, labels: Labels) -> None:
        if labels:
            passed[name] = _join(passed.get(name, _EMPTY), labels)

    positional = [p for p in parameters if p.kind == "positional"]
    rest_positional = next((p.name for p in parameters if p.kind == "var_positional"), None)
    rest_keyword = next((p.name for p in parameters if p.kind == "var_keyword"), None)
    rest = [rest_positional] if rest_positional else []
    for index, value in enumerate(call.args):
        if value.kind is ValueKind.SPREAD:   # `*args` may fill any positional from here on
            names = [p.name for p in positional[index:]] + rest
        else:
            names = [positional[index].name] if index < len(positional) else rest
        labels = view.value_labels(file, call.scope, value)
        for name in names:
            give(name, labels)
    by_name = {p.name for p in parameters}
    for name, value in call.kwargs:
        labels = view.value_labels(file, call.scope, value)
        if name == "**":
            for parameter in parameters:
                give(parameter.name, labels)
        elif name in by_name:
            give(name, labels)
        elif rest_keyword is not None:
            # `def tool(**kwargs)` called `tool(amount=x)`: `kwargs` carries x.
            give(rest_keyword, labels)
    return passed


def _parameter_labels(files: tuple[FileIR, ...], graph: CallGraph, state: _State
                      ) -> dict[str, Labels]:
    """Phase 2: every parameter symbol's labels, from what every call site passes (those may
    hold the callers' own parameter symbols: solved to a fixed point over symbols)."""
    view = state.view
    passed: dict[str, list[Labels]] = defaultdict(list)
    for file in files:
        for call in file.calls:
            target = graph.target(call)
            if target is None or call.id in state.seeds.barriers:
                continue
            for name, labels in _bindings(file, call, target, graph, view).items():
                passed[_symbol(target, name)].append(labels)
    real: dict[str, set[str]] = defaultdict(set)
    feeds: dict[str, set[str]] = defaultdict(set)      # symbol -> symbols it is passed to
    for symbol, sets in passed.items():
        for labels in sets:
            for label in labels:
                if label.startswith(_SYMBOL):
                    feeds[label].add(symbol)
                else:
                    real[symbol].add(label)
    pending = deque(sorted(passed))
    queued = set(pending)
    while pending:
        symbol = pending.popleft()
        queued.discard(symbol)
        for fed in sorted(feeds.get(symbol, ())):
            if not real[symbol] <= real[fed]:
                real[fed] |= real[symbol]
                if fed not in queued:
                    queued.add(fed)
                    pending.append(fed)
    return {symbol: frozenset(labels) for symbol, labels in real.items()}


class _Expansion:
    """Labels with parameter symbols replaced by what callers pass (memoised per set)."""

    def __init__(self, parameters: Mapping[str, Labels]) -> None:
        self.parameters = parameters
        self.memo: dict[Labels, Labels] = {}

    def __call__(self, labels: Labels) -> Labels:
        found = self.memo.get(labels)
        if found is None:
            expanded = set()
            for label in labels:
                if label.startswith(_SYMBOL):
                    expanded |= self.parameters.get(label, _EMPTY)
                else:
                    expanded.add(label)
            found = frozenset(expanded)
            self.memo[labels] = found
        return found


def _binding_scope(file: FileIR, scope: str, path: str, view: Flow) -> str:
    """The scope where the root of `path` is bound: the innermost one that binds it."""
    root = root_of(path)
    for candidate in scope_chain(scope):
        if root in view.names.get((file.path, candidate), {}) or \
                root in view.locals.get((file.path, candidate), ()):
            return candidate
    return scope
