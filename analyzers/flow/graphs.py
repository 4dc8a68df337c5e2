"""State graphs (LangGraph and its kind), read from their builders: which functions are
nodes, how they are wired, and which node returns write which state channel.

A graph's nodes share one state: a node returns the channels it writes (`{"draft": text}`,
`Command(update={...})`) and the nodes and routers that run after it read them
(`state["draft"]`, `state.draft`, `state.get("draft")`). Model output therefore travels
between functions that never call each other; the dataflow follows it per channel key (a
state is a set of named channels, never one model-written value). Which node runs next is
written in the builder: edges, conditional edges whose router returns node names (possibly
through a path map), and a returned command's `goto`. The pack's `[state_graphs]` says
which calls are which; nothing here spells a framework's name.

A builder is one constructor call and every step made on it: a step chained on its result
(`new StateGraph(S).addNode(...).addEdge(...)`) or a method call on a name it was assigned
to (`builder = StateGraph(S)`, `builder.add_node(...)`). What the code does not spell out
(a router returning a computed name with no path map, a command's computed `goto`) may lead
to any node of the graph: `open` targets, never guessed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from topo.analyzers.flow.callgraph import (CallGraph, FunctionKey, follow_reexport,
                                           function_key, reexport_table)
from topo.analyzers.ir import (MODULE_SCOPE, Call, DefinitionKind, FileIR, Value, ValueKind,
                               scope_chain)
from topo.analyzers.packs import StateGraphRules
from topo.analyzers.packs._patterns import NamePatterns
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.paths import segments

__all__ = ["StateGraph", "StateGraphs", "ChannelWrite", "read_state_graphs", "channel_key",
           "breakpoint_sites", "ANY", "END"]

ANY = "*"           # a target the code does not spell: any node of the graph
END = "__end__"     # the graph's exit (START is not a node: an edge from it adds nothing)
_START = "__start__"
_SELF_NAMES = frozenset({"self", "cls", "this"})
_GENERIC = re.compile(r"\A([A-Za-z_$][\w$]*)\s*<.*>\Z", re.S)   # `humanNode<S, U>`


@dataclass(frozen=True, slots=True)
class ChannelWrite:
    """A node's return writes `value` to channel `key` of its graphs."""

    scope: str
    key: str
    value: Value


@dataclass(frozen=True, slots=True)
class StateGraph:
    """One builder: node name -> function (None for a compiled subgraph or a name the
    reader cannot resolve), and each node's successors by name (`ANY`, `END` included)."""

    id: str
    file: str
    line: int
    nodes: tuple[tuple[str, FunctionKey | None], ...]
    successors: tuple[tuple[str, tuple[str, ...]], ...]
    routers: tuple[tuple[str, FunctionKey], ...] = ()     # (source node, router function)
    # (compile call, nodes paused before, nodes paused after)
    breakpoints: tuple[tuple[Call, tuple[str, ...], tuple[str, ...]], ...] = ()
    module: str = ""
    language: str = ""

    def symbol_of(self, scope: str) -> str:
        """The symbol of code in `scope` of the builder's file."""
        return self.module if scope == MODULE_SCOPE else f"{self.module}.{scope}"

    def node_names(self, function: FunctionKey) -> tuple[str, ...]:
        return tuple(name for name, key in self.nodes if key == function)

    def after(self, name: str) -> tuple[str, ...]:
        """The nodes that may run right after `name`: `ANY` opens to every node."""
        found = dict(self.successors).get(name, ())
        if ANY in found:
            return tuple(n for n, _ in self.nodes)
        return tuple(n for n in found if n != END)


@dataclass(frozen=True, slots=True)
class StateGraphs:
    """Every graph of the repository, and what the dataflow asks of them."""

    graphs: tuple[StateGraph, ...] = ()
    # (file, qualname) of each node and router function -> (state parameter, graph ids)
    readers: Mapping[tuple[str, str], tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # file -> the channel writes of the node functions it holds, with their graphs
    writes: Mapping[str, tuple[tuple[ChannelWrite, tuple[str, ...]], ...]] = \
        field(default_factory=dict)
    # graph id -> the files holding its readers (read again when a channel grows)
    reader_files: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def read_state_graphs(files: Iterable[FileIR], graph: CallGraph,
                      rules: StateGraphRules) -> StateGraphs:
    """The graphs the builders of `files` define (none when no pack declares builders)."""
    files = tuple(files)
    if not rules.builders:
        return StateGraphs()
    reader = _Reader(files, graph, rules)
    graphs = tuple(built for file in files for built in reader.graphs_of(file))
    if not graphs:
        return StateGraphs()
    return _channels(graphs, files, graph, rules, reader)


# ---- breakpoints ----

def breakpoint_sites(graphs: StateGraphs, sites: Iterable[Site], system: str) -> tuple[Site, ...]:
    """A human approval site for each compile step naming static breakpoints
    (`compile(interrupt_before=[...])`, `.compile({ interruptBefore: [...] })`) that no pack
    entry already made one of (a chained or renamed builder's `compile` names no class)."""
    known = {site.attr("call") for site in sites if site.kind is SiteKind.APPROVAL_GATE}
    found: dict[str, Site] = {}
    for built in graphs.graphs:
        for call, before, after in built.breakpoints:
            if call.id in known or call.id in found:
                continue
            attrs = {"approver": "human", "enforced": True, "role": "authority",
                     "call": call.id, "interrupt_before": before, "interrupt_after": after}
            found[call.id] = Site(
                id=f"{SiteKind.APPROVAL_GATE.value}:{call.id}", kind=SiteKind.APPROVAL_GATE,
                system=system, language=built.language, location=call.location,
                symbol=built.symbol_of(call.scope),
                attrs=tuple(sorted((k, v) for k, v in attrs.items() if v)))
    return tuple(found.values())


# ---- reads ----

def channel_key(path: str) -> str | None:
    """The top-level key a state read names: `state.draft`, `state["draft"]` -> `draft`."""
    parts = segments(path)
    if len(parts) < 2:
        return None
    key = parts[1]
    if key.startswith("["):
        key = key[1:-1]
        if len(key) < 2 or key[0] != key[-1] or key[0] not in "'\"":
            return None
        return key[1:-1]
    return key


# ---- builders ------------------------------------------------------------------------------

@dataclass
class _Builder:
    id: str
    file: str
    line: int
    module: str
    language: str
    nodes: dict[str, FunctionKey | None] = field(default_factory=dict)
    successors: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    routers: list[tuple[str, FunctionKey]] = field(default_factory=list)
    breakpoints: list[tuple[Call, tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)


class _Reader:
    """Reads builders file by file (holds the pack's patterns and the name resolution)."""

    def __init__(self, files: tuple[FileIR, ...], graph: CallGraph,
                 rules: StateGraphRules) -> None:
        self.graph = graph
        self.rules = rules
        self.builders = NamePatterns.build(rules.builders)
        self.start = NamePatterns.build(rules.start)
        self.end = NamePatterns.build(rules.end)
        self.commands = NamePatterns.build(rules.commands)
        self.sends = NamePatterns.build(rules.sends)
        self.reexports = reexport_table(files)
        self.modules = {file.module for file in files}

    def graphs_of(self, file: FileIR) -> Iterator[StateGraph]:
        ordered = sorted(file.calls, key=_source_order)
        groups: dict[str, _Builder] = {}
        of_call: dict[str, _Builder] = {}
        for call in ordered:
            if call.callee is not None and call.callee in self.builders:
                of_call[call.id] = groups.setdefault(
                    call.id, _Builder(call.id, file.path, call.location.line, file.module,
                                         file.language.value))
        if not of_call and not any(self._builder_method(c) for c in ordered):
            return
        named = {a.target: a.value.call for a in file.assignments
                 if a.value.kind is ValueKind.CALL and a.value.call}
        for call in ordered:
            builder = self._builder_of(call, of_call, named, groups, file)
            if builder is None:
                continue
            of_call[call.id] = builder
            self._step(file, call, builder)
        for builder in groups.values():
            if builder.nodes:
                yield _frozen(builder)

    def _builder_method(self, call: Call) -> bool:
        if call.callee is None or "." not in call.callee:
            return False
        owner, method = call.callee.rsplit(".", 1)
        return owner in self.builders and method in self._methods()

    def _methods(self) -> frozenset[str]:
        return frozenset((*self.rules.nodes, *self.rules.edges, *self.rules.routers,
                          *self.rules.compile))

    def _builder_of(self, call: Call, of_call: Mapping[str, _Builder], named: Mapping[str, str],
                    groups: dict[str, _Builder], file: FileIR) -> _Builder | None:
        if call.name not in self._methods():
            return None
        chained = call.chained_on
        if chained is not None:
            return of_call.get(chained)
        if call.receiver is None:
            return None
        known = of_call.get(named.get(call.receiver, ""))    # `b = new StateGraph(S).addNode(…)`
        if known is not None:
            return known
        if self._builder_method(call):     # a builder passed in, typed by its annotation
            key = f"{file.path}:{call.scope}:{call.receiver}"
            return groups.setdefault(key, _Builder(key, file.path, call.location.line,
                                                   file.module, file.language.value))
        return None

    def _step(self, file: FileIR, call: Call, builder: _Builder) -> None:
        if call.name in self.rules.nodes:
            self._add_node(file, call, builder)
        elif call.name in self.rules.edges:
            source = self._node_name(self._argument(call, 0, "source"))
            target = self._node_name(self._argument(call, 1, "target"))
            if source is not None and target is not None:
                builder.successors[source].add(target)
        elif call.name in self.rules.routers:
            self._add_router(file, call, builder)
        elif call.name in self.rules.compile:
            before = self._names(call, self.rules.pause_before)
            after = self._names(call, self.rules.pause_after)
            if before or after:
                builder.breakpoints.append((call, before, after))

    def _add_node(self, file: FileIR, call: Call, builder: _Builder) -> None:
        name_value = self._argument(call, 0, "name")
        action = self._argument(call, 1, "action")
        if action is None:          # `add_node(fn)`: the node is named after its function
            action, name_value = name_value, None
        function = self._function(file, action, call.scope)
        name = _literal(name_value) if name_value is not None else \
            (function.rsplit(".", 1)[-1] if function else None)
        if name is None:
            return
        builder.nodes[name] = function
        if function is not None:
            builder.successors[name].update(self._command_targets(function))

    def _add_router(self, file: FileIR, call: Call, builder: _Builder) -> None:
        source = self._node_name(self._argument(call, 0, "source"))
        router = self._function(file, self._argument(call, 1, "router"), call.scope)
        if source is None:
            return
        targets = self._path_map(self._argument(call, 2, "path_map"))
        if targets is None:
            targets = self._returned_names(router) if router else (ANY,)
        builder.successors[source].update(targets)
        if router is not None:
            builder.routers.append((source, router))

    def _names(self, call: Call, keys: tuple[str, ...]) -> tuple[str, ...]:
        """The node names a keyword (`interrupt_before=[...]`) or an options key
        (`{ interruptBefore: [...] }`) lists."""
        value = _keyed(call, keys)
        if value is None or value.kind is not ValueKind.LIST:
            return ()
        return tuple(sorted({name for _, v in value.entries
                             if (name := self._node_name(v)) is not None}))

    def _argument(self, call: Call, index: int, role: str) -> Value | None:
        keyword = self.rules.keyword(role)
        if keyword is not None and call.kwarg(keyword) is not None:
            return call.kwarg(keyword)
        if index < len(call.args) and call.args[index].kind is not ValueKind.SPREAD:
            return call.args[index]
        return None

    def _node_name(self, value: Value | None) -> str | None:
        if value is None:
            return None
        if value.kind is ValueKind.NAME and value.resolved:
            if value.resolved in self.start:
                return _START
            if value.resolved in self.end:
                return END
        return _literal(value)

    def _path_map(self, value: Value | None) -> tuple[str, ...] | None:
        """A router's possible targets as its path map lists them (the values of a dict)."""
        if value is None or value.kind not in (ValueKind.LIST, ValueKind.DICT):
            return None
        names = [self._node_name(entry) for _, entry in value.entries]
        return tuple(ANY if name is None else name for name in names)

    def _returned_names(self, function: FunctionKey) -> tuple[str, ...]:
        """The node names a router returns when it spells them, else `ANY`."""
        found = self.graph.definitions.get(function)
        if found is None:
            return (ANY,)
        file, definition = found
        names: list[str] = []
        for returned in file.returns:
            if returned.scope != definition.qualname or returned.value is None:
                continue
            values = [v for _, v in returned.value.entries] \
                if returned.value.kind is ValueKind.LIST else [returned.value]
            names.extend(self._node_name(v) or ANY for v in values)
        sent = [self._node_name(call.args[0]) or ANY
                for call in _sends(file, definition.qualname, self.sends) if call.args]
        if sent:    # `return [Send("summarize", {...}) for doc in ...]`: the sends say where
            names = [name for name in names if name != ANY] + sent
        return tuple(names) or (ANY,)

    def _command_targets(self, function: FunctionKey) -> Iterator[str]:
        """Where the commands a node returns send the graph (`Command(goto="send")`)."""
        found = self.graph.definitions.get(function)
        if found is None:
            return
        file, definition = found
        for command in _returned_commands(file, definition.qualname, self.commands):
            goto = _keyed(command, self.rules.goto)
            if goto is None:
                continue
            values = [v for _, v in goto.entries] if goto.kind is ValueKind.LIST else [goto]
            for value in values:
                yield self._node_name(value) or ANY

    def _function(self, file: FileIR, value: Value | None, scope: str) -> FunctionKey | None:
        """The repo function a node or router value names: a name, a lambda, a generic
        instantiation of a name (`humanNode<State, Update>`), or a method of the class whose
        method builds the graph (`self.review`, `this.review`)."""
        if value is None:
            return None
        own = _own_method(value, scope)
        if own is not None:
            found = self._defined(self._class_method(file, scope, own))
            if found is not None:
                return found
        if value.kind is ValueKind.LAMBDA and value.ref:
            return function_key(file, value.ref)
        name = value.resolved
        if value.kind is ValueKind.OTHER:
            match = _GENERIC.match(value.text.strip())
            name = self._local(file, match.group(1)) if match else None
        elif value.kind is ValueKind.NAME and name is None and value.ref:
            name = self._local(file, value.ref)
        return self._defined(name)

    def _class_method(self, file: FileIR, scope: str, method: str) -> str | None:
        """`Class.method` for the innermost class among the scopes enclosing `scope`."""
        classes = {d.qualname for d in file.definitions if d.kind is DefinitionKind.CLASS}
        owner = next((c for c in scope_chain(scope) if c in classes), None)
        return None if owner is None else f"{file.module}.{owner}.{method}"

    def _local(self, file: FileIR, name: str) -> str | None:
        for imported in file.imports:
            if imported.alias == name:
                return imported.module if imported.name is None else \
                    f"{imported.module}.{imported.name}"
        return f"{file.module}.{name}"

    def _defined(self, name: str | None) -> FunctionKey | None:
        for _ in range(8):
            if name is None:
                return None
            found = self.graph.definitions.get(name)
            if found is not None:
                return name if found[1].kind is not DefinitionKind.CLASS else None
            name = follow_reexport(name, self.reexports, self.modules)
        return None


def _source_order(call: Call) -> tuple[int, int, int]:
    """Steps of one chain share a location and are numbered `<id>+1`, `<id>+2`, …: a chained
    step comes after the call it is made on."""
    step = call.id.rsplit("+", 1)[1] if "+" in call.id else "0"
    return (call.location.line, call.location.column, int(step) if step.isdigit() else 0)


def _own_method(value: Value, scope: str) -> str | None:
    """`review` for a node written `self.review` / `this.review` inside a method."""
    ref = value.ref or ""
    head, _, method = ref.partition(".")
    if value.kind is ValueKind.NAME and head in _SELF_NAMES and method.isidentifier() \
            and "." in scope:
        return method
    return None


def _frozen(builder: _Builder) -> StateGraph:
    return StateGraph(builder.id, builder.file, builder.line,
                      tuple(sorted(builder.nodes.items(), key=lambda item: item[0])),
                      tuple(sorted((name, tuple(sorted(targets)))
                                   for name, targets in builder.successors.items())),
                      tuple(sorted(set(builder.routers))),
                      tuple(sorted(builder.breakpoints, key=lambda b: b[0].id)),
                      builder.module, builder.language)


def _literal(value: Value | None) -> str | None:
    if value is not None and value.kind is ValueKind.STRING and isinstance(value.literal, str):
        return value.literal
    return None


def _keyed(call: Call, keys: tuple[str, ...]) -> Value | None:
    """A command's keyword (`goto=`), or the key of its options object (`{ goto }`)."""
    for key in keys:
        found = call.kwarg(key)
        if found is None and call.args and call.args[0].kind is ValueKind.DICT:
            found = call.args[0].entry(key)
        if found is not None:
            return found
    return None


def _returned_commands(file: FileIR, qualname: str, commands: NamePatterns) -> Iterator[Call]:
    calls = {call.id: call for call in file.calls}
    for returned in file.returns:
        if returned.value is None or returned.value.kind is not ValueKind.CALL or \
                returned.scope != qualname:
            continue
        call = calls.get(returned.value.call or "")
        if call is not None and call.callee is not None and call.callee in commands:
            yield call


# ---- channels ------------------------------------------------------------------------------

def _channels(graphs: tuple[StateGraph, ...], files: tuple[FileIR, ...], graph: CallGraph,
              rules: StateGraphRules, reader: _Reader) -> StateGraphs:
    members: dict[FunctionKey, set[str]] = defaultdict(set)
    nodes: dict[FunctionKey, set[str]] = defaultdict(set)
    for built in graphs:
        for _, function in built.nodes:
            if function is not None:
                members[function].add(built.id)
                nodes[function].add(built.id)
        for _, router in built.routers:
            members[router].add(built.id)
    readers: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {}
    reader_files: dict[str, set[str]] = defaultdict(set)
    for function, ids in sorted(members.items()):
        found = graph.definitions.get(function)
        if found is None:
            continue
        file, definition = found
        parameters = [p.name for p in definition.parameters if p.name not in _SELF_NAMES]
        if not parameters or parameters[0].startswith("*"):
            continue
        readers[(file.path, definition.qualname)] = (parameters[0], tuple(sorted(ids)))
        for graph_id in ids:
            reader_files[graph_id].add(file.path)
    writes: dict[str, list[tuple[ChannelWrite, tuple[str, ...]]]] = defaultdict(list)
    for function, ids in sorted(nodes.items()):
        found = graph.definitions.get(function)
        if found is None:
            continue
        file, definition = found
        for write in _node_writes(file, definition.qualname, rules, reader.commands):
            writes[file.path].append((write, tuple(sorted(ids))))
    for function, ids in sorted(members.items()):
        found = graph.definitions.get(function)
        if found is None:
            continue
        file, definition = found
        for call in _sends(file, definition.qualname, reader.sends):
            sent = call.args[1] if len(call.args) > 1 else None
            if sent is not None and sent.kind is ValueKind.DICT:
                for write in _entries(call.scope, sent):
                    writes[file.path].append((write, tuple(sorted(ids))))
    return StateGraphs(graphs, readers, {path: tuple(found) for path, found in writes.items()},
                       {key: tuple(sorted(paths)) for key, paths in reader_files.items()})


def _node_writes(file: FileIR, qualname: str, rules: StateGraphRules,
                 commands: NamePatterns) -> Iterator[ChannelWrite]:
    """The channels a node's returns write: the keys of a returned object literal (or of the
    one a returned name was assigned), and of a returned command's `update`."""
    dicts = {(a.scope, a.target): a.value for a in file.assignments
             if a.value.kind is ValueKind.DICT and not a.element}
    for returned in file.returns:
        value = returned.value
        if value is None or returned.scope != qualname:
            continue
        if value.kind is ValueKind.NAME and value.ref:
            value = next((dicts[(scope, value.ref)] for scope in scope_chain(returned.scope)
                          if (scope, value.ref) in dicts), value)
        if value.kind is ValueKind.DICT:
            yield from _entries(returned.scope, value)
    for command in _returned_commands(file, qualname, commands):
        update = _keyed(command, rules.update)
        if update is not None and update.kind is ValueKind.DICT:
            yield from _entries(qualname, update)


def _sends(file: FileIR, qualname: str, sends: NamePatterns) -> Iterator[Call]:
    """The `Send(node, state)` calls made in a function (comprehensions and lambdas in it
    included)."""
    for call in file.calls:
        if call.callee is not None and call.callee in sends and \
                (call.scope == qualname or call.scope.startswith(qualname + ".")):
            yield call


def _entries(scope: str, value: Value) -> Iterator[ChannelWrite]:
    for key, entry in value.entries:
        if key is not None and entry.kind is not ValueKind.SPREAD:
            yield ChannelWrite(scope, key, entry)
