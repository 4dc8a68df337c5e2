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

The fixed point is reached with a worklist of scopes (a function's body, a class body, a
module's top level), files callees first: a scope is read again only when something it reads
changed (a name bound in it or in an enclosing scope, a call result one of its statements
reads, the summary of a function it calls, a graph channel of a node it holds). A helper whose
summary grows re-reads the functions calling it, not their whole files. Labels only grow over a
finite set, so the worklist empties; there is no pass cap to silently drop labels. Parameters
carry symbols, not their callers' labels (see `propagate`), so no caller's pass makes a callee
dirty.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from dataclasses import dataclass, field

from topo.analyzers.flow.callgraph import CallGraph, FunctionKey, function_key
from topo.analyzers.flow.graphs import ChannelWrite, StateGraphs, channel_key
from topo.analyzers.ir import (MODULE_SCOPE, Assignment, Call, Condition, Definition, DefinitionKind,
                               FileIR, LITERAL_KINDS, Return, Value, ValueKind, scope_chain)
from topo.analyzers.paths import root_of

__all__ = ["Seeds", "Flow", "propagate", "propagate_apart", "MUTATING_METHODS"]

Labels = frozenset[str]
_EMPTY: Labels = frozenset()
_STRING, _NUMBER, _BOOL, _NONE, _LAMBDA = (ValueKind.STRING, ValueKind.NUMBER, ValueKind.BOOL,
                                           ValueKind.NONE, ValueKind.LAMBDA)
assert LITERAL_KINDS == {_STRING, _NUMBER, _BOOL, _NONE}

# Methods that put their arguments into their receiver: `atoms.append(state(…))`.
MUTATING_METHODS = frozenset({"append", "extend", "insert", "update", "add", "setdefault",
                              "appendleft", "push", "unshift", "set"})
_SELF_NAMES = frozenset({"self", "cls"})


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

    def path_labels(self, file: FileIR, scope: str, path: str | None) -> Labels:
        """Labels of an access path read in `scope` (enclosing scopes, then the module)."""
        if not path:
            return _EMPTY
        root = root_of(path)
        readers = self.readers
        for candidate in scope_chain(scope):
            if readers:
                reader = readers.get((file.path, candidate))
                if reader is not None and reader[0] == root:
                    return self._state_labels(reader[1], path) | \
                        self.names.get((file.path, candidate), {}).get(root, _EMPTY)
            bound = self.names.get((file.path, candidate), {})
            if root in bound:
                return bound[root]
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
        labels = set().union(*(self.path_labels(file, scope, read) for read in value.reads))
        for result in value.results:
            labels |= self.calls.get(result, _EMPTY)
        for _, entry in value.entries:
            labels |= self.value_labels(file, scope, entry)
        return frozenset(labels)

    def argument_labels(self, file: FileIR, call: Call) -> Labels:
        """Labels of everything a call consumes: arguments, keyword arguments, receiver, and
        the arguments of builder steps chained on its result (`db.insert(t).values(row)`
        writes `row`; `.update(t).set(x).where(y)`)."""
        labels = set(self.path_labels(file, call.scope, _keyed_receiver(call)))
        for read in call.receiver_reads:
            labels |= self.path_labels(file, call.scope, read)
        for result in call.receiver_results:
            labels |= self.calls.get(result, _EMPTY)
        pending, seen = [call], {call.id}
        while pending:
            step = pending.pop()
            for value in (*step.args, *(v for _, v in step.kwargs)):
                labels |= self.value_labels(file, step.scope, value)
            for after in self.chained.get(step.id, ()):
                if after.id not in seen:
                    seen.add(after.id)
                    pending.append(after)
        return frozenset(labels)

    def restricted(self, keep: Labels) -> Flow:
        """The flow of the labels in `keep` alone (what is left empty is dropped, as
        `propagate` drops it)."""
        def cut(table: Mapping[Any, Labels]) -> dict[Any, Labels]:
            return {key: kept for key, labels in table.items() if (kept := labels & keep)}
        names = {key: kept for key, bound in self.names.items() if (kept := cut(bound))}
        return Flow(cut(self.calls), names, cut(self.returns), self.chained,
                    cut(self.channels), self.readers)

    def condition_labels(self, file: FileIR, scope: str, condition: Condition | None) -> Labels:
        if condition is None:
            return _EMPTY
        labels = set().union(*(self.path_labels(file, scope, read) for read in condition.reads))
        for call_id in condition.calls:
            labels |= self.calls.get(call_id, _EMPTY)
        return frozenset(labels)


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


def propagate(files: Iterable[FileIR], graph: CallGraph, seeds: Seeds) -> Flow:
    """Run label propagation to a fixed point over all files.

    Phase 1 summarises: each parameter carries only its own symbol (and the labels its seeds
    give it), so what a function returns says which parameters flow there; a call's result is
    that summary with the symbols replaced by what *this* call passes. Phase 2 gives each
    parameter symbol the labels its callers pass, and the flow is reported with symbols
    expanded: inside a helper a name still carries what any caller may pass, but a helper's
    result at one call site carries only that call's arguments.
    """
    files = tuple(f for f in files if f.parse_error is None)
    by_path = {file.path: file for file in files}
    units = _units(files, seeds.graphs)
    readers = _readers(files, graph, units)
    state = _State(seeds, readers, _chained(files))
    if not seeds.calls and not seeds.parameters:
        return state.view          # nothing to follow: every label would be empty
    # Files callees first, so that most summaries are ready when their calls are read; a
    # file's scopes outermost first, so that module names are bound before functions read them.
    # Any order reaches the same fixed point.
    pending = deque(unit for path in _bottom_up(by_path, graph, readers)
                    for unit in units.of_file.get(path, ()))
    queued = set(pending)
    while pending:
        unit = pending.popleft()
        queued.discard(unit)
        state.dirty.clear()
        _pass(by_path[unit[0]], units.statements[unit], graph, state)
        for other in sorted(state.dirty):
            if other not in queued:
                queued.add(other)
                pending.append(other)
    expand = _Expansion(_parameter_labels(files, graph, state))
    # Only what carries a label is kept: most names held nothing but a symbol no caller fed.
    names = {}
    for key, bound in state.names.items():
        kept = {root: labels for root, value in bound.items() if (labels := expand(value))}
        if kept:
            names[key] = kept
    return Flow(_nonempty(state.calls, expand), names, _nonempty(state.returns, expand),
                state.chained, _nonempty(state.channels, expand), seeds.graphs.readers)


def propagate_apart(files: Iterable[FileIR], graph: CallGraph,
                    flows: Mapping[str, Mapping[str, Labels]]) -> dict[str, Flow]:
    """Several flows seeded at calls, in one fixed point: labels only ever join, so the
    joint flow restricted to one flow's seed labels is that flow run alone, at the cost of
    one pass over the program instead of one per flow."""
    joint: dict[str, Labels] = {}
    for calls in flows.values():
        for call, labels in calls.items():
            joint[call] = joint.get(call, _EMPTY) | labels
    flow = propagate(files, graph, Seeds(calls=joint))
    return {name: flow.restricted(frozenset().union(*calls.values()))
            for name, calls in flows.items()}


def _nonempty(table: Mapping[str, Labels], expand: Callable[[Labels], Labels]
              ) -> dict[str, Labels]:
    return {key: labels for key, value in table.items() if (labels := expand(value))}


_SYMBOL = "#param:"     # `#param:<function key>:<name>`: no site id starts with `#`


def _symbol(function: FunctionKey, name: str) -> str:
    return f"{_SYMBOL}{function}:{name}"


Unit = tuple[str, str]      # (file path, scope): what the worklist reads at once


@dataclass(frozen=True, slots=True)
class _Statements:
    """What a pass over one scope of one file reads: the definitions whose parameters it
    binds, and its assignments, calls, returns and graph-channel writes."""

    definitions: tuple[Definition, ...] = ()
    assignments: tuple[Assignment, ...] = ()
    calls: tuple[Call, ...] = ()
    returns: tuple[Return, ...] = ()
    writes: tuple[tuple[ChannelWrite, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class _Units:
    statements: Mapping[Unit, _Statements]
    of_file: Mapping[str, tuple[Unit, ...]]       # a file's units, outermost scope first
    # (file, scope) -> the units whose reads may resolve to names bound in that scope: those
    # whose scope chain holds it
    within: Mapping[Unit, tuple[Unit, ...]]


def _units(files: tuple[FileIR, ...], graphs: StateGraphs) -> _Units:
    statements: dict[Unit, _Statements] = {}
    of_file: dict[str, tuple[Unit, ...]] = {}
    within: dict[Unit, list[Unit]] = defaultdict(list)
    for file in files:
        by_scope: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
        for definition in file.definitions:
            by_scope[definition.qualname]["definitions"].append(definition)
        for kind, items in (("assignments", file.assignments), ("calls", file.calls),
                            ("returns", file.returns)):
            for item in items:
                by_scope[item.scope][kind].append(item)
        for write in graphs.writes.get(file.path, ()):
            by_scope[write[0].scope]["writes"].append(write)
        scopes = sorted(by_scope, key=lambda scope: (scope != MODULE_SCOPE, scope.count("."),
                                                     scope))
        of_file[file.path] = tuple((file.path, scope) for scope in scopes)
        for scope in scopes:
            unit = (file.path, scope)
            statements[unit] = _Statements(**{kind: tuple(items)
                                              for kind, items in by_scope[scope].items()})
            for enclosing in scope_chain(scope):
                within[(file.path, enclosing)].append(unit)
    return _Units(statements, of_file, {key: tuple(units) for key, units in within.items()})


@dataclass(frozen=True, slots=True)
class _Readers:
    """Which units read what another unit's pass may change."""

    call_files: Mapping[str, str]                  # call id -> the file it is in
    callers: Mapping[FunctionKey, tuple[str, ...]]  # function -> files calling it
    units: _Units
    call_readers: Mapping[str, tuple[Unit, ...]]    # call id -> units reading its result
    calling: Mapping[FunctionKey, tuple[Unit, ...]]  # function -> units calling it
    # function written as a call's argument -> the units of those calls (their results read
    # its returns)
    callbacks: Mapping[FunctionKey, tuple[Unit, ...]] = field(default_factory=dict)


def _bottom_up(by_path: Mapping[str, FileIR], graph: CallGraph, readers: _Readers
               ) -> list[str]:
    """File paths, each after the files it calls into (cycles broken in path order)."""
    calls_into: dict[str, set[str]] = defaultdict(set)
    for edge in graph.edges:
        caller = readers.call_files.get(edge.call)
        callee = graph.definitions.get(edge.callee)
        if caller is not None and callee is not None and callee[0].path != caller:
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


def _readers(files: tuple[FileIR, ...], graph: CallGraph, units: _Units) -> _Readers:
    call_files = {call.id: file.path for file in files for call in file.calls}
    call_units = {call.id: (file.path, call.scope) for file in files for call in file.calls}
    callers: dict[FunctionKey, set[str]] = defaultdict(set)
    calling: dict[FunctionKey, set[Unit]] = defaultdict(set)
    for edge in graph.edges:
        unit = call_units.get(edge.call)
        if unit is not None:
            callers[edge.callee].add(unit[0])
            calling[edge.callee].add(unit)
    callbacks: dict[FunctionKey, set[Unit]] = defaultdict(set)
    for file in files:
        for call in file.calls:
            for value in (*call.args, *(v for _, v in call.kwargs)):
                if value.kind is _LAMBDA and value.ref:
                    callbacks[function_key(file, value.ref)].add((file.path, call.scope))
    return _Readers(call_files, {k: tuple(sorted(v)) for k, v in callers.items()}, units,
                    _call_readers(units), {k: tuple(sorted(v)) for k, v in calling.items()},
                    {k: tuple(sorted(v)) for k, v in callbacks.items()})


def _call_readers(units: _Units) -> dict[str, tuple[Unit, ...]]:
    """Which units' statements read each call's result: through a value naming it (as its
    call, or among its results, at any depth), a receiver computed from it, or the arguments
    of a builder step chained on a call the unit makes."""
    found: dict[str, set[Unit]] = defaultdict(set)

    def value(unit: Unit, read: Value | None) -> None:
        if read is None:        # a bare `return`
            return
        if read.call:
            found[read.call].add(unit)
        for result in read.results:
            found[result].add(unit)
        for _, entry in read.entries:
            value(unit, entry)

    chained: dict[str, list[Call]] = defaultdict(list)
    for statements in units.statements.values():
        for call in statements.calls:
            if call.chained_on is not None:
                chained[call.chained_on].append(call)
    for unit, statements in units.statements.items():
        for assignment in statements.assignments:
            value(unit, assignment.value)
        for returned in statements.returns:
            value(unit, returned.value)
        for write, _ in statements.writes:
            value(unit, write.value)
        for call in statements.calls:
            for result in call.receiver_results:
                found[result].add(unit)
            pending, seen = [call], {call.id}
            while pending:
                step = pending.pop()
                for argument in (*step.args, *(v for _, v in step.kwargs)):
                    value(unit, argument)
                for after in chained.get(step.id, ()):
                    if after.id not in seen:
                        seen.add(after.id)
                        pending.append(after)
    return {call: tuple(sorted(readers)) for call, readers in found.items()}


class _State:
    """Mutable accumulation for one `propagate` run (never escapes it)."""

    def __init__(self, seeds: Seeds, readers: _Readers,
                 chained: Mapping[str, tuple[Call, ...]]) -> None:
        self.seeds = seeds
        self.readers = readers
        self.chained = chained
        self.dirty: set[Unit] = set()    # units to read again after the current one
        self.calls: dict[str, Labels] = defaultdict(lambda: _EMPTY, seeds.calls)
        self.names: dict[tuple[str, str], dict[str, Labels]] = defaultdict(dict)
        self.returns: dict[FunctionKey, Labels] = defaultdict(lambda: _EMPTY)
        self.channels: dict[Channel, Labels] = {}
        # One view for the whole run: it reads the tables above, which only grow.
        self.view = Flow(self.calls, self.names, self.returns, self.chained, self.channels,
                         seeds.graphs.readers)

    def add_channel(self, channel: Channel, labels: Labels) -> None:
        known = self.channels.get(channel, _EMPTY)
        if labels and not labels <= known:
            self.channels[channel] = known | labels
            of_file = self.readers.units.of_file
            for path in self.seeds.graphs.reader_files.get(channel[0], ()):
                self.dirty.update(of_file.get(path, ()))

    def add_name(self, key: tuple[str, str], root: str, labels: Labels) -> None:
        if labels and not labels <= self.names[key].get(root, _EMPTY):
            self.names[key][root] = self.names[key].get(root, _EMPTY) | labels
            self.dirty.update(self.readers.units.within.get(key, ()))

    def add_call(self, call_id: str, labels: Labels) -> None:
        if labels and not labels <= self.calls[call_id]:
            self.calls[call_id] = self.calls[call_id] | labels
            self.dirty.update(self.readers.call_readers.get(call_id, ()))

    def add_return(self, function: FunctionKey, labels: Labels) -> None:
        if labels and not labels <= self.returns[function]:
            self.returns[function] = self.returns[function] | labels
            self.dirty.update(self.readers.calling.get(function, ()))
            self.dirty.update(self.readers.callbacks.get(function, ()))


def _pass(file: FileIR, statements: _Statements, graph: CallGraph, state: _State) -> None:
    view = state.view
    for definition in statements.definitions:
        key = function_key(file, definition.qualname)
        seeded = state.seeds.parameters.get(key, {})
        called = key in state.readers.callers    # else a symbol would never be fed or replaced
        for parameter in definition.parameters:
            labels = seeded.get(parameter.name, _EMPTY)
            if called:
                labels = labels | {_symbol(key, parameter.name)}
            state.add_name((file.path, definition.qualname), parameter.name, labels)
    for assignment in statements.assignments:
        labels = view.value_labels(file, assignment.scope, _destructured(assignment))
        state.add_name((file.path, assignment.scope), root_of(assignment.target), labels)
    for call in statements.calls:
        _call(file, call, graph, state, view)
    for returned in statements.returns:
        state.add_return(function_key(file, returned.scope),
                         view.value_labels(file, returned.scope, returned.value))
    for write, graphs in statements.writes:
        labels = view.value_labels(file, write.scope, write.value)
        for graph_id in graphs:
            state.add_channel((graph_id, write.key), labels)


def _call(file: FileIR, call: Call, graph: CallGraph, state: _State, view: Flow) -> None:
    if call.receiver and call.name in MUTATING_METHODS:
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
        state.add_call(call.id, view.argument_labels(file, call)
                       | _callback_returns(file, call, state))
        return
    summary = state.returns.get(target, _EMPTY)
    if not summary:
        return
    prefix = f"{_SYMBOL}{target}:"
    if not any(label.startswith(prefix) for label in summary):
        state.add_call(call.id, summary)
        return
    passed = _bindings(file, call, target, graph, view)
    labels = set()
    for label in summary:
        if label.startswith(prefix):
            labels |= passed.get(label[len(prefix):], _EMPTY)
        else:
            labels.add(label)
    state.add_call(call.id, frozenset(labels))


def _callback_returns(file: FileIR, call: Call, state: _State) -> Labels:
    """What the functions written as a library call's arguments return (`arr.some(k =>
    text.includes(k))`): the call's result is computed from them."""
    labels: Labels = _EMPTY
    for value in (*call.args, *(v for _, v in call.kwargs)):
        if value.kind is _LAMBDA and value.ref:
            labels = labels | state.returns.get(function_key(file, value.ref), _EMPTY)
    return labels


def _bindings(file: FileIR, call: Call, target: FunctionKey, graph: CallGraph,
              view: Flow) -> dict[str, Labels]:
    """What this call passes to each parameter of `target` (labels in the caller's terms)."""
    _, definition = graph.definitions[target]
    parameters = list(definition.parameters)
    if (definition.kind is DefinitionKind.METHOD and parameters
            and parameters[0].name in _SELF_NAMES):
        parameters = parameters[1:]
    passed: dict[str, set[str]] = defaultdict(set)
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
            passed[name] |= labels
    by_name = {p.name for p in parameters}
    for name, value in call.kwargs:
        labels = view.value_labels(file, call.scope, value)
        if name == "**":
            for parameter in parameters:
                passed[parameter.name] |= labels
        elif name in by_name:
            passed[name] |= labels
        elif rest_keyword is not None:
            # `def tool(**kwargs)` called `tool(amount=x)`: `kwargs` carries x.
            passed[rest_keyword] |= labels
    return {name: frozenset(labels) for name, labels in passed.items() if labels}


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
        if root in view.names.get((file.path, candidate), {}):
            return candidate
    return scope
