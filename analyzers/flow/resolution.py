"""Cross-module resolution: what a name holds when one file alone cannot say.

A front-end names what one file shows (`client = AMIClient()` then `client.decide(...)`). Real
applications spread that over files and functions, and then the callee is None and the pack
never sees the call. This stage joins the files and names, without guessing:
- an instance made at module level and imported elsewhere (`from app.control import client`;
  TS `export const client = new AMIClient()`, `export default memrail`);
- a factory's result (`ami = make_client()`, `async with make_client() as ami`,
  `make_client().decide(...)`), from its return annotation or from what it returns, and a
  pack wrapper's result, from its first argument (`chain = prompt.pipe(llm)`);
- a parameter typed by its call sites (`await run(client)` then `client.decide(...)` in `run`),
  function values passed as callbacks included (`loop.start(draft_reply)` then
  `await on_message(text)`);
- `self.x = make_client()` in a class's methods;
- module constants read as arguments (`decision_point=DP`, imported or local), which become
  the literal they hold (the text as written is kept);
- a module imported from beside a script (`examples/bot/app.py` doing `import helpers`);
- the library bases of a class's repo ancestors (`class Search(RagTool)`, `RagTool(BaseTool)`);
- the fields a class declares (`conn: asyncpg.Connection` in a dataclass, a pydantic model or
  a plain class body), read through any instance (`deps.conn.execute` → `asyncpg.Connection.
  execute`), and the packs' generic attributes (`ctx: RunContext[Deps]` → `ctx.deps` is `Deps`).
A field declared `Any`, a union or a string, or declared and assigned two classes, stays
unresolved.
A name whose bindings, returns or call sites disagree stays unresolved; recursion through a
cycle of helpers answers unresolved for the name on the cycle.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import replace

from topo.analyzers.flow.callgraph import (CallGraph, build_call_graph, follow_reexport,
                                           function_key, reexport_table)
from topo.analyzers.ir import (LITERAL_KINDS, MODULE_SCOPE, Assignment, Call, Definition,
                               DefinitionKind, FileIR, Language, Parameter, Value, ValueKind,
                               scope_chain)

__all__ = ["resolve_files"]

_SELF_NAMES = frozenset({"self", "cls", "this"})
_PENDING = object()          # memo marker: this answer is being computed (a cycle)
_MAX_HOPS = 8
# Questions asked while answering one (a factory returning a helper's result, …) nest at most
# this deep; deeper, the name is unresolved, as on a cycle. It keeps Python's stack safe.
_MAX_DEPTH = 48


def resolve_files(files: Iterable[FileIR], constructors: Container[str] = frozenset(),
                  generics: Mapping[str, int] | None = None,
                  wrappers: Container[str] = frozenset()) -> tuple[FileIR, ...]:
    """`files` with the callees and constant arguments this stage can name filled in.
    `constructors` are the packs' factory names (calls that build an instance), `generics`
    their generic attributes (`pydantic_ai.RunContext.deps` → type argument 0), `wrappers`
    their calls whose result holds their first argument (`prompt.pipe(llm)`)."""
    files = tuple(files)
    resolver = _Resolver(files, build_call_graph(files), constructors, generics or {},
                         wrappers)
    return tuple(resolver.rewrite(file) for file in files)


class _Resolver:
    """Demand-driven, memoised answers over an index of every file (one run)."""

    def __init__(self, files: tuple[FileIR, ...], graph: CallGraph,
                 constructors: Container[str], generics: Mapping[str, int],
                 wrappers: Container[str] = frozenset()) -> None:
        self.graph = graph
        self.constructors = constructors
        self.generics = generics
        self.wrappers = wrappers
        self.reexports = reexport_table(files)
        self.modules = {file.module for file in files}
        self.top_modules = {module.split(".", 1)[0] for module in self.modules}
        self.calls: dict[str, tuple[FileIR, Call]] = {}
        self.callers: dict[str, list[tuple[FileIR, Call]]] = defaultdict(list)
        self.module_values: dict[str, list[tuple[FileIR, Value]]] = defaultdict(list)
        # (file, scope, name) -> what is bound: a value and the place in it (a destructured
        # element), or None when nothing is known of it
        self.local_values: dict[tuple[str, str, str], list[_Bound | None]] = defaultdict(list)
        self.attribute_values: dict[tuple[str, str], list[tuple[FileIR, str, Value]]] = \
            defaultdict(list)
        self.returns: dict[str, list[tuple[FileIR, str, Value | None]]] = defaultdict(list)
        self.memo: dict[tuple, object] = {}
        # Pure answers over the index, kept because many calls ask them again: the re-export
        # hop of a name, and the literal a constant argument names.
        self.followed: dict[str, str | None] = {}
        self.literals: dict[tuple[str, str, str | None, str | None], Value | None] = {}
        self.depth = 0
        self.classes: dict[str, frozenset[str]] = {}
        for file in files:
            self._index(file)

    def _index(self, file: FileIR) -> None:
        for call in file.calls:
            self.calls[call.id] = (file, call)
            target = self.graph.target(call)
            if target is not None:
                self.callers[target].append((file, call))
        for assignment in file.assignments:
            self._index_assignment(file, assignment)
        for returned in file.returns:
            self.returns[function_key(file, returned.scope)].append(
                (file, returned.scope, returned.value))

    def _index_assignment(self, file: FileIR, assignment: Assignment) -> None:
        target, scope = assignment.target, assignment.scope
        simple = target.isidentifier()
        # An augmented value, or an element whose place is unknown, is of no known type.
        unknown = assignment.augmented or (assignment.element and assignment.position is None)
        value = None if unknown or assignment.element else assignment.value
        if scope == MODULE_SCOPE:
            if simple and value is not None:
                self.module_values[f"{file.module}.{target}"].append((file, value))
            elif simple:
                self.module_values[f"{file.module}.{target}"].append(
                    (file, Value(ValueKind.OTHER, target)))
            return
        if simple:
            self.local_values[(file.path, scope, target)].append(
                None if unknown else (assignment.value, assignment.position or ()))
            return
        head, _, attribute = target.partition(".")
        if head in _SELF_NAMES and attribute.isidentifier() and value is not None:
            owner = self.owner_class(file, scope)
            if owner is not None:
                self.attribute_values[(owner, attribute)].append((file, scope, value))

    # ---- rewriting -------------------------------------------------------------------------

    def rewrite(self, file: FileIR) -> FileIR:
        calls = tuple(self._rewrite_call(file, call) for call in file.calls)
        definitions = tuple(self._rewrite_class(file, d) for d in file.definitions)
        same_calls = all(new is old for new, old in zip(calls, file.calls, strict=True))
        same_definitions = all(new is old for new, old in
                               zip(definitions, file.definitions, strict=True))
        if same_calls and same_definitions:
            return file
        return replace(file, calls=calls, definitions=definitions)

    def _rewrite_class(self, file: FileIR, definition: Definition) -> Definition:
        """A class also lists the library bases of its repo ancestors: `class Search(RagTool)`
        with `class RagTool(BaseTool)` in another module is a `BaseTool` too."""
        if definition.kind is not DefinitionKind.CLASS or not definition.bases:
            return definition
        inherited = self.ancestors(function_key(file, definition.qualname))
        extra = tuple(base for base in inherited if base not in definition.bases)
        return replace(definition, bases=(*definition.bases, *extra)) if extra else definition

    def ancestors(self, cls: str) -> tuple[str, ...]:
        """The bases of `cls`'s repo ancestors, as written and resolved, nearest first."""
        found: list[str] = []
        pending, seen = [cls], {cls}
        while pending and len(seen) <= _MAX_DEPTH:
            current = pending.pop(0)
            defined = self.graph.definitions.get(current)
            if defined is None:
                continue
            file, definition = defined
            for written in definition.bases:
                base = self.holds(self.sibling(file, written))
                if current != cls:
                    # As its module names it (`crewai.tools.BaseTool`), which is what packs
                    # match, even when the audited repository defines it (crewAI itself).
                    found.extend(name for name in (written, base) if name not in found)
                parent = self.graph.definitions.get(base)
                if parent is not None and parent[1].kind is DefinitionKind.CLASS \
                        and base not in seen:
                    seen.add(base)
                    pending.append(base)
        return tuple(found)

    def _rewrite_call(self, file: FileIR, call: Call) -> Call:
        callee = self.callee(file, call)
        args = tuple(self._constant(file, call.scope, value) for value in call.args)
        kwargs = tuple((key, self._constant(file, call.scope, value))
                       for key, value in call.kwargs)
        if callee == call.callee and _same(args, call.args) \
                and _same((v for _, v in kwargs), (v for _, v in call.kwargs)):
            return call
        return replace(call, callee=callee, args=args, kwargs=kwargs)

    def callee(self, file: FileIR, call: Call) -> str | None:
        """The call's callee, named through what its receiver (or its name) holds."""
        return self._memoised(("callee", call.id), lambda: self._callee(file, call))

    def _callee(self, file: FileIR, call: Call) -> str | None:
        if call.callee is not None:
            return self._through_fields(self.holds(self.sibling(file, call.callee)))
        if call.decorates is not None or not call.name:
            return None
        if call.receiver is None:
            held = self.name_type(file, call.scope, call.name)
            return held
        base = self._receiver_type(file, call)
        return None if base is None else f"{base}.{call.name}"

    def _receiver_type(self, file: FileIR, call: Call) -> str | None:
        receiver = call.receiver or ""
        if receiver.endswith("()") or "()." in receiver:
            # `make_client().decide()`: named through the last call of the chain.
            if len(call.receiver_results) != 1:
                return None
            rest = receiver[receiver.rindex("()") + 2:]
            held = self.call_type(call.receiver_results[0])
            return None if held is None or "[" in rest else held + rest
        if "[" in receiver or "(" in receiver:
            return None
        return self.path_type(file, call.scope, receiver)

    # ---- types -----------------------------------------------------------------------------

    def path_type(self, file: FileIR, scope: str, path: str) -> str | None:
        """What an access path of plain names (`client`, `self.ami`, `deps.client.chat`)
        holds in `scope`."""
        root, _, rest = path.partition(".")
        if root in _SELF_NAMES:
            owner = self.owner_class(file, scope)
            attribute, _, tail = rest.partition(".")
            if owner is None or not attribute:
                return None
            held = self.attribute_type(owner, attribute)
            return None if held is None else self.members(held, tail)
        attribute, _, tail = rest.partition(".")
        generic = self._generic_attribute(file, scope, root, attribute) if attribute else None
        if generic is not None:
            return self.members(generic, tail)
        held = self.name_type(file, scope, root)
        return None if held is None else self.members(held, rest)

    def members(self, held: str, rest: str) -> str | None:
        """`held` then the attributes `rest` reads, each typed by the field of a repo class
        it names (`Deps` + `conn.execute` → `asyncpg.Connection.execute`). From the first
        attribute that is no field the rest is kept as written (`openai.OpenAI` +
        `chat.completions`); a field of no known class (`Any`, two classes) names nothing."""
        parts = rest.split(".") if rest else []
        for index, attribute in enumerate(parts):
            defined = self.graph.definitions.get(held)
            if defined is None or defined[1].kind is not DefinitionKind.CLASS \
                    or not self._is_field(held, attribute):
                return ".".join([held, *parts[index:]])
            typed = self.attribute_type(held, attribute)
            if typed is None:
                return None
            held = typed
        return held

    def _is_field(self, owner: str, attribute: str) -> bool:
        """The class declares `attribute` or its methods assign `self.attribute`."""
        return (owner, attribute) in self.attribute_values \
            or any(name == attribute for name, _ in self.graph.definitions[owner][1].fields)

    def _generic_attribute(self, file: FileIR, scope: str, name: str, attribute: str
                           ) -> str | None:
        """`ctx.deps` for a parameter `ctx: RunContext[Deps]` when a pack says `deps` of
        `RunContext` holds its type argument 0: `Deps`, as its module names it."""
        parameter = self._parameter(file, scope, name)
        if parameter is None or not parameter.generic:
            return None
        head, *arguments = parameter.generic
        index = self.generics.get(f"{self.holds(head or '')}.{attribute}")
        if index is None or index >= len(arguments) or arguments[index] is None:
            return None
        return self.holds(self.sibling(file, arguments[index] or ""))

    def _parameter(self, file: FileIR, scope: str, name: str) -> Parameter | None:
        """The parameter `name` is in `scope`, when the innermost scope binding it is a
        function taking it (not a local rebinding)."""
        for candidate in scope_chain(scope):
            if candidate == MODULE_SCOPE or (file.path, candidate, name) in self.local_values:
                return None
            found = self.graph.definitions.get(function_key(file, candidate))
            if found is not None:
                for parameter in found[1].parameters:
                    if parameter.name == name:
                        return parameter
        return None

    def name_type(self, file: FileIR, scope: str, name: str) -> str | None:
        """What a bare name holds in `scope`: a local binding, a parameter, a module binding
        or an import, the innermost that binds it."""
        return self._memoised(("name", file.path, scope, name),
                              lambda: self._name_type(file, scope, name))

    def _name_type(self, file: FileIR, scope: str, name: str) -> str | None:
        for candidate in scope_chain(scope):
            if candidate == MODULE_SCOPE:
                return self._module_name(file, name)
            values = self.local_values.get((file.path, candidate, name))
            if values is not None:
                return self._agreed(self.entry_type(file, candidate, bound[0], bound[1])
                                    if bound is not None else None for bound in values)
            function = function_key(file, candidate)
            found = self.graph.definitions.get(function)
            if found is not None and any(p.name == name for p in found[1].parameters):
                declared = next(p.type for p in found[1].parameters if p.name == name)
                passed = self.parameter_type(function, name)
                return passed if passed is not None or declared is None \
                    else self.holds(self.sibling(file, declared))
        return None

    def _module_name(self, file: FileIR, name: str) -> str | None:
        local = f"{file.module}.{name}"
        if local in self.module_values or local in self.graph.definitions:
            return self.holds(local)
        for imported in file.imports:
            if imported.alias == name and imported.scope == MODULE_SCOPE:
                target = imported.module if imported.name is None else \
                    f"{imported.module}.{imported.name}"
                return self.holds(target)
        return None

    def value_type(self, file: FileIR, scope: str, value: Value) -> str | None:
        """What a value holds: an instance's class, a function, a library name."""
        match value.kind:
            case ValueKind.CALL:
                return self.call_type(value.call or "")
            case ValueKind.NAME:
                ref = value.ref or ""
                if "(" in ref or "[" in ref:
                    return None
                if value.resolved is not None:
                    return self.holds(self.sibling(file, value.resolved))
                return self.path_type(file, scope, ref)
            case ValueKind.LAMBDA:
                return function_key(file, value.ref) if value.ref else None
        return None

    def entry_type(self, file: FileIR, scope: str, value: Value,
                   position: tuple[int | str, ...]) -> str | None:
        """What the entry at `position` of a value holds: `reader, mailer = open_clients()`
        reads the entries of what `open_clients` returns (a tuple or an object literal)."""
        if not position:
            return self.value_type(file, scope, value)
        entry = _entry_at(value, position[0])
        if entry is not None:
            return self.entry_type(file, scope, entry, position[1:])
        if value.kind is ValueKind.NAME and value.ref and \
                all(isinstance(key, str) and key.isidentifier() for key in position) and \
                all(part.isidentifier() for part in value.ref.split(".")):
            # `const { store } = config`: the field of what the name holds, as `config.store`
            return self.path_type(file, scope, ".".join((value.ref, *map(str, position))))
        if value.kind is not ValueKind.CALL or not value.call:
            return None
        found = self.calls.get(value.call)
        if found is None:
            return None
        function = self._function_called(*found)
        if function is None:
            return None
        returns = self.returns.get(function, ())
        return self._agreed(self.entry_type(where, inner, returned, position)
                            if returned is not None else None
                            for where, inner, returned in returns) if returns else None

    def _function_called(self, file: FileIR, call: Call) -> str | None:
        callee = self.callee(file, call)
        if callee is None:
            return None
        target = self.graph.resolved.get(call.id) or callee
        return target if target in self.graph.definitions else None

    def call_type(self, call_id: str) -> str | None:
        """What a call returns: an instance of the class it constructs, or what a repo
        function returns (its annotation, else every `return` agreeing)."""
        found = self.calls.get(call_id)
        if found is None:
            return None
        file, call = found
        callee = self.callee(file, call)
        if callee is None:
            return None
        definition = self.graph.definitions.get(callee)
        if definition is not None and definition[1].kind is DefinitionKind.CLASS:
            return callee
        target = self._function_called(file, call)
        if target is not None:
            owner, _, name = target.rpartition(".")
            return owner if name in ("__init__", "constructor") else self.return_type(target)
        if callee in self.wrappers:
            # `promisify(exec)`, `prompt.pipe(llm)`: what the first argument holds
            first = call.args[0] if call.args else None
            return None if first is None or first.kind is ValueKind.SPREAD \
                else self.value_type(file, call.scope, first)
        last = callee.rsplit(".", 1)[-1]
        return callee if last[:1].isupper() or callee in self.constructors else None

    def return_type(self, function: str) -> str | None:
        return self._memoised(("return", function), lambda: self._return_type(function))

    def _return_type(self, function: str) -> str | None:
        defined = self.graph.definitions.get(function)
        found = defined[1].returns if defined is not None else None
        if found is None and function in self.returns:
            found = self._agreed(self.value_type(file, scope, value) if value is not None
                                 else None for file, scope, value in self.returns[function])
        return found

    def parameter_type(self, function: str, name: str) -> str | None:
        """The type every call site passes for parameter `name` (None if any disagrees)."""
        return self._memoised(("parameter", function, name),
                              lambda: self._parameter_type(function, name))

    def _parameter_type(self, function: str, name: str) -> str | None:
        callers = self.callers.get(function, ())
        if not callers:
            return None
        _, definition = self.graph.definitions[function]
        parameters = list(definition.parameters)
        if definition.kind is DefinitionKind.METHOD and parameters \
                and parameters[0].name in _SELF_NAMES:
            parameters = parameters[1:]
        return self._agreed(self._argument_type(file, call, parameters, name)
                            for file, call in callers)

    def _argument_type(self, file: FileIR, call: Call, parameters: list, name: str
                       ) -> str | None:
        value = call.kwarg(name)
        if value is None:
            positional = [p.name for p in parameters if p.kind == "positional"]
            if name in positional:
                index = positional.index(name)
                head = call.args[:index + 1]
                if len(head) > index and all(v.kind is not ValueKind.SPREAD for v in head):
                    value = head[index]
        return None if value is None else self.value_type(file, call.scope, value)

    def _is_parameter(self, file: FileIR, scope: str, name: str | None) -> bool:
        found = self.graph.definitions.get(function_key(file, scope))
        return found is not None and any(p.name == name for p in found[1].parameters)

    def attribute_type(self, owner: str, attribute: str) -> str | None:
        """What `attribute` of an `owner` instance holds: the class its body declares, and
        what its methods assign to `self.attribute`, all agreeing. A declared class stands
        against assignments of unknown type; a declaration naming no class (`Any`) or two
        classes leave it unresolved."""
        values = self.attribute_values.get((owner, attribute), ())
        defined = self.graph.definitions.get(owner)
        fields = dict(defined[1].fields) if defined is not None else {}
        if not values and attribute not in fields:
            return None
        return self._memoised(("attribute", owner, attribute),
                              lambda: self._attribute_type(owner, attribute, values, fields))

    def _attribute_type(self, owner: str, attribute: str,
                        values: Iterable[tuple[FileIR, str, Value]],
                        fields: dict[str, str | None]) -> str | None:
        assigned = [self.value_type(file, scope, value) for file, scope, value in values]
        if attribute not in fields:
            return self._agreed(assigned)
        declared = fields[attribute]
        if declared is None:
            return None
        file = self.graph.definitions[owner][0]
        declared = self.holds(self.sibling(file, declared))
        return self._agreed([declared, *(held for held in assigned if held is not None)])

    def sibling(self, file: FileIR, name: str) -> str:
        """A name imported from a module beside a script (`examples/bot/app.py` doing
        `import helpers`: the script's directory is on `sys.path`), else `name` unchanged."""
        if file.language is not Language.PYTHON or "." not in file.module:
            return name
        directory = file.module.rsplit(".", 1)[0]
        if directory in self.modules or name.split(".", 1)[0] in self.top_modules:
            return name
        candidate = f"{directory}.{name}"
        parts = candidate.split(".")
        depth = directory.count(".") + 2
        if any(".".join(parts[:cut]) in self.modules for cut in range(depth, len(parts) + 1)):
            return candidate
        return name

    def holds(self, name: str) -> str:
        """What a resolved dotted name denotes after module bindings and re-exports: the
        type of a module-level instance (`app.control.client` → `memrail.AMIClient`), else
        the name itself."""
        current = name
        for current in self._hops(name):
            held = self._module_binding(current)
            if held is not None:
                return held
        return current

    def _through_fields(self, name: str) -> str | None:
        """`app.Deps.conn.execute` (a front-end names an imported class's attribute as
        written) read through the fields of the longest repo-class prefix."""
        if not self._in_repo(name):
            return name
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            defined = self.graph.definitions.get(".".join(parts[:cut]))
            if defined is not None and defined[1].kind is DefinitionKind.CLASS:
                return self.members(".".join(parts[:cut]), ".".join(parts[cut:]))
        return name

    def _in_repo(self, name: str) -> bool:
        """Whether `name` starts with the first segment of one of the run's modules: every
        definition, module binding and re-export of the run is named `<module>.<name>`, so
        another name (`json.dumps`, `openai.OpenAI`) has no prefix among them."""
        return name.split(".", 1)[0] in self.top_modules

    def _hops(self, name: str) -> Iterator[str]:
        """`name`, then each name a re-export leads it to (at most `_MAX_HOPS`)."""
        for _ in range(_MAX_HOPS):
            yield name
            if name not in self.followed:
                self.followed[name] = follow_reexport(name, self.reexports, self.modules)
            following = self.followed[name]
            if following is None or following == name:
                return
            name = following

    def _module_binding(self, name: str) -> str | None:
        """The type of the longest prefix of `name` bound at module level, plus the rest."""
        if not self._in_repo(name):
            return None
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            prefix = ".".join(parts[:cut])
            values = self.module_values.get(prefix)
            if values is None:
                continue
            held = self._memoised(("module", prefix), lambda: self._agreed(
                self.value_type(file, MODULE_SCOPE, value) for file, value in values))
            return None if held is None else ".".join([held, *parts[cut:]])
        return None

    def owner_class(self, file: FileIR, scope: str) -> str | None:
        """`module.Class` for a method scope `Class.method` (or a function nested in it)."""
        classes = self.classes.get(file.path)
        if classes is None:
            classes = frozenset(d.qualname for d in file.definitions
                                if d.kind is DefinitionKind.CLASS)
            self.classes[file.path] = classes
        parts = scope.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            candidate = ".".join(parts[:cut])
            if candidate in classes:
                return f"{file.module}.{candidate}"
        return None

    def _memoised(self, key: tuple, compute: Callable[[], str | None]) -> str | None:
        """`compute()` once per key; a key met again while it is computed (a cycle), or
        asked deeper than `_MAX_DEPTH`, answers None."""
        if key in self.memo:
            found = self.memo[key]
            return None if found is _PENDING else found  # type: ignore[return-value]
        if self.depth >= _MAX_DEPTH:
            return None
        self.memo[key] = _PENDING
        self.depth += 1
        try:
            found = compute()
        finally:
            self.depth -= 1
        self.memo[key] = found
        return found

    @staticmethod
    def _agreed(types: Iterable[str | None]) -> str | None:
        found: str | None = None
        for held in types:
            if held is None or (found is not None and held != found):
                return None
            found = held
        return found

    # ---- constants -------------------------------------------------------------------------

    def _constant(self, file: FileIR, scope: str, value: Value) -> Value:
        """A NAME argument bound once, at module level, to a literal becomes that literal
        (text as written); dict and list literals are read through."""
        if value.kind is ValueKind.DICT or value.kind is ValueKind.LIST:
            entries = tuple((key, self._constant(file, scope, entry))
                            for key, entry in value.entries)
            return value if _same((v for _, v in entries), (v for _, v in value.entries)) \
                else replace(value, entries=entries)
        if value.kind is not ValueKind.NAME or not value.ref \
                or not all(part.isidentifier() for part in value.ref.split(".")):
            return value
        key = (file.path, scope, value.ref, value.resolved)
        if key not in self.literals:
            self.literals[key] = self._literal(file, scope, value)
        literal = self.literals[key]
        return value if literal is None else replace(literal, text=value.text)

    def _literal(self, file: FileIR, scope: str, value: Value) -> Value | None:
        ref = value.ref or ""
        head = ref.split(".", 1)[0]
        bound_locally = any((file.path, candidate, head) in self.local_values
                            or self._is_parameter(file, candidate, head)
                            for candidate in scope_chain(scope)[:-1])
        if bound_locally and (value.resolved is None or "." in ref):
            return None     # a local or a parameter (`ticket.note` of `ticket: Ticket`)
        name = f"{file.module}.{ref}" if value.resolved is None else \
            self.sibling(file, value.resolved)
        for current in self._hops(name):
            values = self.module_values.get(current)
            if values is not None:
                if len(values) == 1 and values[0][1].kind in LITERAL_KINDS:
                    return values[0][1]
                return None
            if "." in ref:
                member = self._member_literal(current)
                if member is not None:
                    return member
        return None

    def _member_literal(self, name: str) -> Value | None:
        """`Topics.SENT` (a key of a module-level dict/object literal), `Events.SENT` (a class
        body constant), `Topic.SENT.value` (an Enum member's value; the member itself only for
        a `str` Enum, which is its value), `names.SENT` through an imported module: the literal
        held, for the longest prefix of `name` that is a module binding or a repo class."""
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            prefix, rest = ".".join(parts[:cut]), parts[cut:]
            values = self.module_values.get(prefix)
            if values is not None:
                return _dict_member(values, rest)
            defined = self.graph.definitions.get(prefix)
            if defined is not None:
                return _class_constant(*defined, rest) \
                    if defined[1].kind is DefinitionKind.CLASS else None
        return None


_Bound = tuple[Value, tuple[int | str, ...]]


def _entry_at(value: Value, key: int | str) -> Value | None:
    """The entry of a tuple/list literal at an index, or of a dict/object literal at a key."""
    if isinstance(key, int) and value.kind is ValueKind.LIST:
        entries = value.entries
        if any(entry.kind is ValueKind.SPREAD for _, entry in entries[:key + 1]):
            return None
        return entries[key][1] if key < len(entries) else None
    if isinstance(key, str) and value.kind is ValueKind.DICT:
        return value.entry(key)
    return None


def _dict_member(values: list[tuple[FileIR, Value]], keys: list[str]) -> Value | None:
    """The literal under `keys` of a name bound once to a dict/object literal."""
    if len(values) != 1:
        return None
    held: Value | None = values[0][1]
    for key in keys:
        if held is None or held.kind is not ValueKind.DICT:
            return None
        held = held.entry(key)
    return held if held is not None and held.kind in LITERAL_KINDS else None


def _class_constant(file: FileIR, cls: Definition, rest: list[str]) -> Value | None:
    """A class body's one literal assignment `rest[0]`; an Enum's member is its value only
    through `.value`, or itself when the Enum mixes in `str` (the member is that string)."""
    enum = any(base.startswith("enum.") or base.endswith("Enum") for base in cls.bases)
    text_enum = enum and any(base in ("builtins.str", "str", "enum.StrEnum")
                             for base in cls.bases)
    if len(rest) == 2 and rest[1] == "value" and enum:
        rest = rest[:1]
    elif len(rest) != 1 or (enum and not text_enum):
        return None
    found = [a for a in file.assignments if a.scope == cls.qualname and a.target == rest[0]]
    if len(found) != 1 or found[0].element or found[0].augmented \
            or found[0].value.kind not in LITERAL_KINDS:
        return None
    return found[0].value


def _same(new: Iterable[Value], old: Iterable[Value]) -> bool:
    return all(a is b for a, b in zip(new, old, strict=True))
