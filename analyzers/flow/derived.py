"""Sites that no API name identifies: they are found from dataflow, and marked `inferred`.

- THRESHOLD: an ordering comparison of a model-derived value with a constant
  (`resp.confidence > 0.8`).
- MODEL_BRANCH: any other test of a model-derived value (`"approve" in text`,
  `output["action"] == "refund"`, `if data["ok"]:`, `match intent:`). Tests of the tool-call
  protocol (`stop_reason == "tool_use"`) or of a value's shape (`isinstance(x, str)`,
  `x is None`) are marked `protocol`: they say the output is well formed, not what to do.
  A verdict parsed from the model's text into a name (`approved = bool(re.search(P, text))`,
  `refused = any(k in text for k in KEYWORDS)`, TS `/P/.test(text)`, `text.includes("OK")`)
  is a MODEL_BRANCH at that statement; it, and a test computed into a name (`ok = score >
  0.8`), carry `derives`: the name a later `if approved:` only asks.
- DISPATCHER: a call whose function is chosen at run time (`TOOLS[name](**args)`,
  `getattr(obj, name)(...)`, through a local alias `handler = self._routes[action]` then
  `handler(**kw)`, or a method of a lookup's result `registry.find(t => t.id === name).run()`,
  `self.tools.get(name).run(args)`) with model-derived arguments, a model-derived choice, or
  inside a loop over model output. Its `targets` are the functions of the dict literal it
  looks up when the code writes one; else, for a method called on the object it looked up
  (`tool_dict[name].execute(**args)`, or a looked-up object called: `__call__`), the family
  of classes in the repository that override that method of a common base (the tool classes
  of a hand-written agent loop): the only one, or the one whose base shares the most leading
  package names with the dispatching module (a monorepo's projects each have their own).
- FALLBACK: an `except` handler of a `try` that makes a control call (a decision or approval).

It also marks atom sites built under a condition (`conditional`), the docs'
`days_since_last_login` case, including atoms appended to a list under a condition.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.flow.dataflow import MUTATING_METHODS, Flow
from topo.analyzers.flow.dispatched_tools import case_key
from topo.analyzers.ir import (MODULE_SCOPE, Assignment, Call, Comparison, Condition,
                               DefinitionKind, FileIR, Guard, GuardKind, Value, ValueKind,
                               scope_chain)
from topo.analyzers.model import Location, Site, SiteKind

__all__ = ["DerivedInput", "derived_sites", "guards_of", "is_protocol_test", "is_dynamic_call",
           "asked_verdicts", "derivations",
           "mark_conditional_atoms",
           "holding_condition", "CONDITIONAL_GUARDS", "CONTROL_KINDS"]

SYSTEM = "code"
# Tests of these fields drive the tool-call protocol (`stop_reason == "tool_use"`), not a
# business decision: such branches are marked `protocol` and are not hidden authority.
PROTOCOL_FIELDS = frozenset({"stop_reason", "finish_reason", "type", "role", "object",
                             "call_type", "item_type", "event_type", "block_type"})
# Tests of a value's shape, not of what it says: `isinstance(x, str)`, `x is None`.
_SHAPE_TESTS = ("isinstance(", "hasattr(", "callable(", "type(")
# Literal values that name protocol item kinds: `"tool_use"`, `"image_generation_call"`,
# `"tool_call_item"`, `"response.output_text.delta"`.
_PROTOCOL_VALUE = re.compile(r"[a-z_.]+(_call|_item|_event|_delta|_use|_calls|_output)\Z"
                             r"|tool_use|tool_calls|function_call|end_turn|stop|text|message")
ORDERING = frozenset({"<", "<=", ">", ">="})
# Tests of a text, as methods (`re.search(P, t)`, `P.match(t)`, `t.startswith("OK")`, TS
# `/P/.test(t)`, `t.includes("OK")`, `KEYWORDS.some(k => t.includes(k))`) or builtins over a
# generator (`any(k in t for k in KEYWORDS)`): the language's own, no library's.
_TEXT_TESTS = frozenset({"search", "match", "fullmatch", "findall", "test", "includes",
                         "startswith", "endswith", "startsWith", "endsWith", "some", "every"})
_TEXT_TEST_CALLS = frozenset({"builtins.any", "builtins.all"})
# Calls that only turn their argument into a boolean: `bool(re.search(...))`, `Boolean(m)`.
_TRUTH_CALLS = frozenset({"builtins.bool", "globalThis.Boolean"})
CONDITIONAL_GUARDS = frozenset({GuardKind.IF, GuardKind.MATCH_CASE, GuardKind.TERNARY,
                                GuardKind.BOOL_OP, GuardKind.EARLY_EXIT, GuardKind.WHILE})
CONTROL_KINDS = frozenset({SiteKind.DECISION_CALL, SiteKind.APPROVAL_GATE})


@dataclass(frozen=True, slots=True)
class DerivedInput:
    files: tuple[FileIR, ...]
    sites: tuple[Site, ...]          # pack sites
    model: Flow                      # labels = inference (and tool-parameter) site ids


def derived_sites(data: DerivedInput) -> tuple[Site, ...]:
    """THRESHOLD, MODEL_BRANCH, DISPATCHER and FALLBACK sites, sorted by id, one per place."""
    control_calls = {s.attr("call") for s in data.sites if s.kind in CONTROL_KINDS}
    modules = frozenset(file.module for file in data.files)
    families = method_families(data.files)
    found: dict[str, Site] = {}
    for file in data.files:
        guards = tuple(guards_of(file))     # read once for the branches and the fallbacks
        for site in (*_branch_sites(file, guards, data.model), *_verdicts(file, data.model),
                     *_dispatchers(file, data.model, modules, families),
                     *_fallbacks(file, guards, control_calls)):
            found.setdefault(site.id, site)
    dispatching = _dispatch_cases(data.sites)
    return tuple(sorted((_as_protocol(site) if _case_of(site) in dispatching else site
                         for site in found.values()), key=lambda s: s.id))


def _dispatch_cases(sites: Iterable[Site]) -> frozenset[str]:
    """The branches of handlers that serve every tool (flow/dispatched_tools.py): testing the
    called tool's name there is the tool-call protocol, not a decision."""
    return frozenset(str(case) for site in sites if site.kind is SiteKind.TOOL_REGISTRATION
                     for case in site.attr("dispatch_cases") or ())


def _case_of(site: Site) -> str | None:
    return case_key(site.location) if site.kind is SiteKind.MODEL_BRANCH else None


def _as_protocol(site: Site) -> Site:
    return site.with_attrs(protocol=True)


def is_protocol_test(site: Site) -> bool:
    """A gate that only tests the tool-call protocol or a value's shape (`protocol`)."""
    return site.kind.declares("protocol") and bool(site.attr("protocol"))


def mark_conditional_atoms(files: Iterable[FileIR], sites: Iterable[Site]) -> tuple[Site, ...]:
    """Atom sites built, or added to their list, under a condition get `conditional=True` and
    the condition's text; other sites are returned unchanged."""
    calls = {call.id: call for file in files for call in file.calls}
    carriers = _carriers(calls.values())
    marked = []
    for site in sites:
        call = calls.get(str(site.attr("call"))) if site.kind is SiteKind.ATOM else None
        guard = None if call is None else _condition_guard(call, calls, carriers)
        if guard is not None:
            condition = holding_condition(guard, site.language)
            site = site.with_attrs(conditional=True, condition=condition)
        marked.append(site)
    return tuple(marked)


# ---- branches ------------------------------------------------------------------------------

def _branch_sites(file: FileIR, guards: Iterable[tuple[str, Guard]], model: Flow
                  ) -> Iterator[Site]:
    tests: list[tuple[str, GuardKind, Condition | None, Location, str | None]] = [
        (scope, guard.kind, guard.condition, guard.location, None) for scope, guard in guards]
    # A test computed into a value is a decision too: `return score >= LIMIT`, `ok = s > 0.8`
    # (which a later `if ok:` only asks).
    tests += [(holder.scope, GuardKind.IF, holder.condition, holder.location,
               _verdict_name(holder) if isinstance(holder, Assignment) else None)
              for holder in (*file.assignments, *file.returns) if holder.condition is not None]
    for scope, kind, condition, location, derives in tests:
        if condition is None:
            continue
        if kind is GuardKind.MATCH_CASE:
            labels = model.condition_labels(file, scope, condition)
            if labels:
                yield _site(SiteKind.MODEL_BRANCH, file, scope, location, labels,
                            op="match", operand=condition.text)
            continue
        for comparison in condition.comparisons:
            site = _comparison_site(file, scope, comparison, model)
            if site is not None:
                yield site if derives is None else site.with_attrs(derives=derives)


def asked_verdicts(condition: Condition | None) -> frozenset[str]:
    """The plain names a condition only asks (`if approved:`, `if not refused:`): a test
    stored there (a site with `derives`) is the decision."""
    return frozenset(str(c.left.ref) for c in (condition.comparisons if condition else ())
                     if c.op in ("truthy", "falsy") and c.left.kind is ValueKind.NAME
                     and (c.left.ref or "").isidentifier())


def derivations(sites: Iterable[Site], file: FileIR, scope: str,
                guard: Guard) -> Iterator[Site]:
    """The tests that derived what `guard` asks, in its function or an enclosing one, before
    it (`approved = bool(re.search(P, answer))` for `if approved:`)."""
    names = asked_verdicts(guard.condition)
    symbols = {file.module if candidate == MODULE_SCOPE else f"{file.module}.{candidate}"
               for candidate in scope_chain(scope)} if names else set()
    for site in sites:
        if site.symbol in symbols and site.kind.declares("derives") \
                and site.attr("derives") in names and site.location.file == file.path \
                and site.location.line <= guard.location.line:
            yield site


def _verdict_name(assignment: Assignment) -> str | None:
    """The plain name a test's result is stored in (not an element, an update or a field)."""
    plain = assignment.target.isidentifier() and not assignment.element \
        and not assignment.augmented
    return assignment.target if plain else None


def _verdicts(file: FileIR, model: Flow) -> Iterator[Site]:
    """A verdict parsed from the model's text, at the statement that parses it: into a name
    (`approved = bool(re.search(P, answer))`, `ok = P.match(answer) is not None`), or
    returned by a predicate (`return any(k in text for k in KEYWORDS)`), whose callers'
    `if is_refusal(answer):` only ask it."""
    calls = {call.id: call for call in file.calls}
    holders = [(a, _verdict_name(a)) for a in file.assignments]
    for holder, name in [*((a, n) for a, n in holders if n is not None),
                         *((r, None) for r in file.returns)]:
        if holder.value is None:
            continue
        candidates = [holder.value]
        if holder.condition is not None:
            candidates += [side for c in holder.condition.comparisons
                           for side in (c.left, c.right) if side is not None]
        if not any(_text_test(value, calls) for value in candidates):
            continue
        labels = model.value_labels(file, holder.scope, holder.value)
        if labels:
            yield _site(SiteKind.MODEL_BRANCH, file, holder.scope, holder.location,
                        labels, op="truthy", operand=holder.value.text, derives=name)


def _text_test(value: Value, calls: Mapping[str, Call], depth: int = 0) -> bool:
    call = calls.get(value.call or "") if value.kind is ValueKind.CALL else None
    if call is None or depth > 3:
        return False
    if call.callee in _TRUTH_CALLS and len(call.args) == 1:
        return _text_test(call.args[0], calls, depth + 1)
    # A method (a regex literal's `/P/.test(t)` has no receiver path and no callee), not a
    # function of the repo that happens to be called `search`.
    method = call.receiver is not None or call.callee is None
    return call.callee in _TEXT_TEST_CALLS or (method and call.name in _TEXT_TESTS)


def _comparison_site(file: FileIR, scope: str, comparison: Comparison,
                     model: Flow) -> Site | None:
    left = model.value_labels(file, scope, comparison.left)
    right = model.value_labels(file, scope, comparison.right)
    if bool(left) == bool(right):
        return None        # neither side is model-derived, or the model is compared to itself
    tainted, other = (comparison.left, comparison.right) if left else \
        (comparison.right, comparison.left)
    labels = left or right
    constant = other is not None and (other.kind is ValueKind.NUMBER
                                      or other.kind is ValueKind.NAME)
    kind = SiteKind.THRESHOLD if comparison.op in ORDERING and constant else \
        SiteKind.MODEL_BRANCH
    value = None if other is None else (other.literal if other.literal is not None
                                        else other.text)
    field = (tainted.ref or tainted.text).rsplit(".", 1)[-1]
    protocol = True if kind is SiteKind.MODEL_BRANCH and (
        field in PROTOCOL_FIELDS
        or (isinstance(value, str) and _PROTOCOL_VALUE.fullmatch(value))
        or comparison.op in ("is", "is not")
        or tainted.text.startswith(_SHAPE_TESTS)) else None
    side = "left" if other is comparison.left else None
    named = "name" if other is not None and other.kind is ValueKind.NAME else None
    return _site(kind, file, scope, comparison.location, labels, op=comparison.op,
                 operand=tainted.text, value=value, protocol=protocol, value_side=side,
                 value_kind=named)


def guards_of(file: FileIR) -> Iterator[tuple[str, Guard]]:
    """Every distinct guard of the file with the scope it sits in.

    The statements of one block share their tuple of guards, and nested blocks their guard
    objects: what is met again by identity is skipped before any location is hashed (a file
    repeats each guard about seven times)."""
    seen: set[tuple[Location, GuardKind]] = set()
    met: set[int] = set()
    read: set[int] = set()
    holders = (*file.calls, *file.assignments, *file.returns, *file.blocks)
    for holder in holders:
        if id(holder.guards) in read:
            continue
        read.add(id(holder.guards))
        for guard in holder.guards:
            if id(guard) in met:
                continue
            met.add(id(guard))
            key = (guard.location, guard.kind)
            if key not in seen:
                seen.add(key)
                yield holder.scope, guard


# ---- dispatchers ---------------------------------------------------------------------------

def _dispatchers(file: FileIR, model: Flow, modules: frozenset[str],
                 families: Mapping[str, tuple[tuple[str, ...], ...]]) -> Iterator[Site]:
    bindings = _dispatch_tables(file)
    calls = {call.id: call for call in file.calls}
    aliases = _chosen_aliases(file, calls, modules)
    for call in file.calls:
        alias = _alias_of(call, aliases)
        lookup = _lookup_of(call, calls, modules)
        if not _is_dynamic(call) and alias is None and lookup is None:
            continue
        labels = model.argument_labels(file, call) | _chooser_labels(file, call, calls, model)
        if alias is not None:
            labels |= model.value_labels(file, alias.scope, alias.value)
            table = alias.value.ref.split("[", 1)[0] if alias.value.ref else ""
        else:
            table = (call.receiver or "").removesuffix("[*]")
        if lookup is not None:
            labels |= _lookup_labels(file, lookup, model)
        for guard in call.guards:
            if guard.kind is GuardKind.LOOP:
                labels |= model.condition_labels(file, call.scope, guard.condition)
        if labels:
            targets = bindings.get(table, ()) or _nearest(
                families.get("__call__" if alias is not None else call.name, ()), file.module)
            yield _site(SiteKind.DISPATCHER, file, call.scope, call.location, labels,
                        call=call.id, function=call.receiver or call.name, targets=targets)


def method_families(files: Iterable[FileIR]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Method name -> its families in the repository, each a base class's method and its
    subclasses' overrides (`Tool.execute`, `FileWriteTool.execute`, …), the base's first. A
    class defining the name alone is no family."""
    bases: dict[str, tuple[str, ...]] = {}
    methods: dict[str, set[str]] = defaultdict(set)
    for file in files:
        for definition in file.definitions:
            if definition.kind is DefinitionKind.CLASS:
                bases[function_key(file, definition.qualname)] = definition.bases
            elif definition.kind is DefinitionKind.METHOD:
                owner, _, name = definition.qualname.rpartition(".")
                methods[function_key(file, owner)].add(name)
    families: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for owner in sorted(methods):
        for name in methods[owner]:
            families[name][_root(owner, name, bases, methods)].add(f"{owner}.{name}")
    found = {}
    for name, by_root in families.items():
        real = tuple((f"{root}.{name}", *sorted(members - {f"{root}.{name}"}))
                     for root, members in sorted(by_root.items()) if len(members) > 1)
        if real:
            found[name] = real
    return found


def _nearest(families: tuple[tuple[str, ...], ...], module: str) -> tuple[str, ...]:
    """The family a dispatch in `module` runs: the only one, or the one whose base's module
    shares the most leading names with `module`; none when that is not one family."""
    if len(families) == 1:
        return families[0]
    parts = module.split(".")

    def shared(family: tuple[str, ...]) -> int:
        count = 0
        for mine, theirs in zip(parts, family[0].split(".")):
            if mine != theirs:
                break
            count += 1
        return count
    scores = [shared(family) for family in families]
    best = max(scores, default=0)
    return families[scores.index(best)] if best and scores.count(best) == 1 else ()


def _root(owner: str, name: str, bases: Mapping[str, tuple[str, ...]],
          methods: Mapping[str, set[str]]) -> str:
    """The farthest ancestor of `owner` in the repository that defines `name` (first bases
    first; a cycle ends the walk)."""
    root, seen, pending = owner, {owner}, list(bases.get(owner, ()))
    while pending:
        base = pending.pop(0)
        if base in seen or base not in bases:
            continue
        seen.add(base)
        if name in methods.get(base, ()):
            root = base
        pending.extend(bases[base])
    return root


def is_dynamic_call(call: Call) -> bool:
    """Whether the function a call runs is picked at run time (a subscript, a call's result,
    an unresolved local), as a dispatcher's is."""
    return _is_dynamic(call)


def _is_dynamic(call: Call) -> bool:
    """A call whose function is an expression the front-end cannot name: a subscript, the
    result of another call (`getattr(...)(...)`), or an unresolved local variable."""
    if call.callee is not None or call.decorates is not None:
        return False
    return call.name == "" or (call.receiver or "").endswith("[*]")


_LOOKUPS = frozenset({"find", "get", "lookup", "pop", "filter", "findOne", "find_one", "at"})


def _is_lookup(call: Call | None, modules: frozenset[str]) -> bool:
    """A lookup in a table whose contents the code chose: a method of an unknown receiver
    (a dict, a registry) or of a repo class; a library's `get` (`requests.get`) is none."""
    if call is None or call.name not in _LOOKUPS or call.receiver is None:
        return False
    if call.callee is None:
        return True
    parts = call.callee.split(".")
    return any(".".join(parts[:cut]) in modules for cut in range(1, len(parts)))


def _chosen_aliases(file: FileIR, calls: Mapping[str, Call],
                    modules: frozenset[str]) -> dict[tuple[str, str], Assignment]:
    """Local names bound to a function taken from a table: `handler = routes[action]`,
    `handler = self.tools.get(name)`, `handler = getattr(obj, name)`."""
    aliases: dict[tuple[str, str], Assignment] = {}
    for assignment in file.assignments:
        value = assignment.value
        if not assignment.target.isidentifier() or assignment.element:
            continue
        made = calls.get(value.call or "") if value.kind is ValueKind.CALL else None
        chosen = (value.kind is ValueKind.NAME and "[" in (value.ref or "")) or (
            made is not None and (_is_lookup(made, modules) or made.callee == "builtins.getattr"))
        if chosen:
            aliases[(assignment.scope, assignment.target)] = assignment
    return aliases


def _alias_of(call: Call, aliases: Mapping[tuple[str, str], Assignment]) -> Assignment | None:
    if call.callee is not None or call.receiver is not None or not call.name:
        return None
    for scope in scope_chain(call.scope):
        found = aliases.get((scope, call.name))
        if found is not None:
            return found
    return None


def _lookup_of(call: Call, calls: Mapping[str, Call], modules: frozenset[str]) -> Call | None:
    """For `registry.find(...).run()`: the lookup whose result's method is called."""
    if call.callee is not None or call.chained_on is None:
        return None
    found = calls.get(call.chained_on)
    return found if _is_lookup(found, modules) else None


def _lookup_labels(file: FileIR, lookup: Call, model: Flow) -> frozenset[str]:
    """What chose the entry: the lookup's arguments, and what a predicate returns
    (`t => t.id === name` returns a test of `name`)."""
    labels = set(model.argument_labels(file, lookup))
    for value in (*lookup.args, *(v for _, v in lookup.kwargs)):
        if value.kind is ValueKind.LAMBDA and value.ref:
            labels |= model.returns.get(function_key(file, value.ref), frozenset())
    return frozenset(labels)



def _chooser_labels(file: FileIR, call: Call, calls: Mapping[str, Call],
                    model: Flow) -> frozenset[str]:
    """For `getattr(obj, name)(...)`: the labels of the call that chose the function."""
    base = calls.get(call.id.rsplit("+", 1)[0]) if "+" in call.id else None
    return model.argument_labels(file, base) if base is not None else frozenset()


def _dispatch_tables(file: FileIR) -> dict[str, tuple[str, ...]]:
    """Names bound to dict literals of functions: `TOOLS = {"refund": refund, ...}`."""
    tables: dict[str, tuple[str, ...]] = {}
    for assignment in file.assignments:
        if assignment.value.kind is ValueKind.DICT:
            targets = tuple(sorted({v.resolved or v.ref or "" for _, v in assignment.value.entries
                                    if v.kind is ValueKind.NAME} - {""}))
            if targets:
                tables[assignment.target] = targets
    return tables


# ---- fallbacks -----------------------------------------------------------------------------

def _fallbacks(file: FileIR, guards: Iterable[tuple[str, Guard]], control_calls: set
               ) -> Iterator[Site]:
    for scope, guard in guards:
        if guard.kind is not GuardKind.EXCEPT:
            continue
        controls = tuple(sorted(c for c in guard.try_calls if c in control_calls))
        if controls:
            yield _site(SiteKind.FALLBACK, file, scope, guard.location, frozenset(),
                        handler=guard.handler or "", controls=controls)


# ---- conditional atoms ---------------------------------------------------------------------

def _carriers(calls: Iterable[Call]) -> dict[str, Call]:
    """atom call id -> the mutating call that adds it to a list (`atoms.append(state(…))`)."""
    carried: dict[str, Call] = {}
    for call in calls:
        if call.name in MUTATING_METHODS and call.receiver:
            for value in (*call.args, *(v for _, v in call.kwargs)):
                for nested in _call_ids(value):
                    carried.setdefault(nested, call)
    return carried


def _call_ids(value) -> Iterator[str]:  # noqa: ANN001 - Value, recursive
    if value.kind is ValueKind.CALL and value.call:
        yield value.call
    for _, entry in value.entries:
        yield from _call_ids(entry)


def holding_condition(guard: Guard, language: str) -> str:
    """What holds where the guarded code runs: the condition, or its negation for an `else`
    branch and for code after an early exit (`if c: return` ... builds it when `not c`)."""
    if guard.condition is None:
        return guard.kind.value
    text = guard.condition.text
    if guard.polarity:
        return text
    return f"not ({text})" if language == "python" else f"!({text})"


def _condition_guard(call: Call, calls: Mapping[str, Call],
                     carriers: Mapping[str, Call]) -> Guard | None:
    for holder in (call, carriers.get(call.id)):
        if holder is None:
            continue
        for guard in reversed(holder.guards):
            if guard.kind in CONDITIONAL_GUARDS:
                return guard
    return None


# ---- construction --------------------------------------------------------------------------

def _site(kind: SiteKind, file: FileIR, scope: str, location: Location,
          labels: frozenset[str], **attrs: object) -> Site:
    symbol = file.module if scope == MODULE_SCOPE else f"{file.module}.{scope}"
    attrs = {k: v for k, v in attrs.items() if v is not None}
    if labels:
        attrs["origins"] = tuple(sorted(labels))
    return Site(id=f"{kind.value}:{location.file}:{location.line}:{location.column}",
                kind=kind, system=SYSTEM, language=file.language.value, location=location,
                symbol=symbol, attrs=tuple(sorted(attrs.items())), inferred=True)


