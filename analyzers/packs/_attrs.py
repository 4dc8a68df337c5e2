"""Declarative attribute extraction: an `AttrSpec` plus a call (or definition) → attrs.

The rules the rest of the audit relies on:
- an argument that is absent gives no attribute (or the spec's `default`);
- a literal gives the attribute its value;
- anything else gives `<name>_literal = False` and `<name>_text = <source text>`, never a
  guess, so later checks can say "decision point is not a literal" (DYNAMIC-DECISION-POINT).
"""

from __future__ import annotations

from dataclasses import dataclass

from topo.analyzers.ir import Call, Definition, Value, ValueKind
from topo.analyzers.packs._clock import UNKNOWN, timestamp_zone
from topo.analyzers.packs._facts import FileFacts, qualified
from topo.analyzers.packs._follow import Appended, known_text, settled
from topo.analyzers.packs._model import AttrSpec, Extract, Source
from topo.analyzers.model import AttrValue, Site

__all__ = ["extract_attrs", "locate", "literal_of", "value_type", "Dynamic", "NOT_LITERAL"]

NOT_LITERAL = object()   # sentinel: None is a literal


@dataclass(frozen=True, slots=True)
class Dynamic:
    """An argument that exists but cannot be read statically; `text` is what was written."""

    text: str


Located = Value | Dynamic | None


def extract_attrs(specs: tuple[AttrSpec, ...], facts: FileFacts, call: Call | None = None,
                  definition: Definition | None = None) -> dict[str, AttrValue]:
    """All attributes of one site. `call` is the matched call (or decorator); `definition` the
    decorated definition or the class, for `class_attr` and `fallback`."""
    attrs: dict[str, AttrValue] = {}
    for spec in specs:
        attrs.update(_extract_one(spec, facts, call, definition))
    return attrs


def _extract_one(spec: AttrSpec, facts: FileFacts, call: Call | None,
                 definition: Definition | None) -> dict[str, AttrValue]:
    if spec.source is None:
        return {spec.name: spec.constant}
    if spec.fallback_to_placed_key and spec.source.is_call_itself:
        return {}        # the engine reads the key the call is placed under
    located = locate(spec.source, facts, call, definition,
                     appended=spec.extract is Extract.KNOWN_TEXT,
                     elements=spec.extract is Extract.MADE_BY)
    if isinstance(located, Appended):   # a known text's start: what follows is the run's
        start = known_text(located.start)
        return {} if start is None else {spec.name: start + "*"}
    if located is None:
        if spec.has_default:
            return {spec.name: spec.default}
        if spec.fallback_to_definition_name and definition is not None:
            return {spec.name: definition.name}
        return {}
    if isinstance(located, Dynamic):
        return _dynamic(spec, located.text)
    return _READERS[spec.extract](spec.name, located, facts)


def _dynamic(spec: AttrSpec, text: str) -> dict[str, AttrValue]:
    if spec.extract in (Extract.KNOWN_TEXT, Extract.ASKING_KEYS, Extract.MADE_BY):
        return {}
    if spec.extract is Extract.TIMEZONE:
        return {spec.name: UNKNOWN}
    if spec.extract is Extract.TYPE:
        return {spec.name: "dynamic"}
    if spec.extract is Extract.TEXT:
        return {spec.name: text}
    return _not_literal(spec.name, text)


def _not_literal(name: str, text: str) -> dict[str, AttrValue]:
    return {f"{name}_literal": False, f"{name}_text": text}


# --- finding the argument -------------------------------------------------------------------

def locate(source: Source, facts: FileFacts, call: Call | None,
           definition: Definition | None = None, *, appended: bool = False,
           elements: bool = False) -> Located | Appended:
    """The value a `Source` designates, `Dynamic` if it is hidden behind a non-literal (a
    variable, `**kwargs`, a helper call), or None if it is absent. With `appended`, a name
    followed to one assignment and later appends is `Appended` (`_follow`)."""
    if source.is_call_itself:
        return None if call is None else Value(ValueKind.CALL, text=call.name, call=call.id)
    located = _settled(_argument(source, facts, call, definition), source, facts, call,
                       appended and not source.path, elements and not source.path)
    for number, key in enumerate(source.path, 1):
        if not isinstance(located, Value):
            break
        last = number == len(source.path)
        located = _settled(_step(located, key, facts), source, facts, call,
                           appended and last, elements and last)
    return located


def _settled(located: Located, source: Source, facts: FileFacts, call: Call | None,
             appended: bool = False, elements: bool = False) -> Located | Appended:
    if not isinstance(located, Value) or call is None or not (source.follow or source.through):
        return located
    return settled(located, call, facts, follow=source.follow, through=source.through,
                   appended=appended, elements=elements)


def _argument(source: Source, facts: FileFacts, call: Call | None,
              definition: Definition | None) -> Located:
    if source.class_attr is not None:
        if definition is None:
            return None
        assignment = facts.class_assignment(definition, source.class_attr)
        return None if assignment is None else assignment.value
    if call is None:
        return None
    if source.chain:
        call = _chained(call, source.chain, facts)
        if call is None:
            return None
    for name in source.kwarg:
        value = call.kwarg(name)
        if value is not None:
            return value
    if source.arg is not None:
        found = _positional(call.args, source.arg)
        if found is not None:
            return found
    if source.object_key and call.args:
        first = call.args[0]
        if first.kind is not ValueKind.DICT:
            return Dynamic(first.text)
        for key in source.object_key:
            found = first.entry(key)
            if found is not None:
                return found
        return _entry(first, source.object_key[0])
    spread = call.kwarg("**")
    if spread is not None and (source.kwarg or source.object_key):
        return Dynamic(spread.text)
    return None


def _chained(call: Call, names: tuple[str, ...], facts: FileFacts) -> Call | None:
    """The first call (in source order) named one of `names` inside `call`'s expression: a
    step of its receiver chain (`session.query(M).filter_by(...).first()`) or a call in its
    arguments (`session.execute(select(M)).scalar_one_or_none()`)."""
    outer = call.location
    if outer.end_line is None or outer.end_column is None:
        return None
    inside = [other for other in facts.file.calls
              if other.name in names and other.id != call.id
              and (other.location.line, other.location.column) >= (outer.line, outer.column)
              and other.location.end_line is not None and other.location.end_column is not None
              and (other.location.end_line, other.location.end_column)
              <= (outer.end_line, outer.end_column)]
    return min(inside, key=lambda c: (c.location.line, c.location.column, c.id), default=None)


def _positional(args: tuple[Value, ...], index: int) -> Located:
    """`args[index]`, unless a `*spread` before (or at) it hides the position. A negative
    index counts from the end (`-1`: the handler last in `server.tool(name, …, handler)`);
    a spread anywhere hides it."""
    if index < 0:
        if any(value.kind is ValueKind.SPREAD for value in args):
            return Dynamic(next(v.text for v in args if v.kind is ValueKind.SPREAD))
        return args[index] if len(args) >= -index else None
    for position, value in enumerate(args[:index + 1]):
        if value.kind is ValueKind.SPREAD:
            return Dynamic(value.text)
        if position == index:
            return value
    return None


def _entry(value: Value, key: str) -> Located:
    found = value.entry(key)
    if found is not None:
        return found
    spreads = [item for item_key, item in value.entries if item.kind is ValueKind.SPREAD]
    return Dynamic(spreads[0].text) if spreads else None


def _step(value: Value, key: str, facts: FileFacts) -> Located:
    """One `path` segment: into a dict literal, or into the keywords of a constructor call
    (`InvokeOptions(dry_run=True)`, `dict(dry_run=True)`). Any other call is opaque: a helper
    returning options may set anything."""
    if value.kind is ValueKind.DICT:
        return _entry(value, key)
    if value.kind is ValueKind.CALL:
        nested = facts.calls.get(value.call or "")
        if nested is None or not _is_constructor(nested):
            return Dynamic(value.text)
        found = nested.kwarg(key)
        if found is not None:
            return found
        spread = nested.kwarg("**")
        return Dynamic(spread.text) if spread is not None else None
    return Dynamic(value.text)


def _is_constructor(call: Call) -> bool:
    return call.name[:1].isupper() or call.callee == "builtins.dict"


# --- reading the value ----------------------------------------------------------------------

def literal_of(value: Value) -> object:
    """The Python value of a literal (a list of literals becomes a tuple), else NOT_LITERAL."""
    if value.kind in (ValueKind.STRING, ValueKind.NUMBER, ValueKind.BOOL, ValueKind.NONE):
        return value.literal
    if value.kind is ValueKind.LIST:
        items = tuple(literal_of(item) for _, item in value.entries)
        return NOT_LITERAL if any(item is NOT_LITERAL for item in items) else items
    return NOT_LITERAL


def value_type(value: Value) -> str:
    """The static type of an atom value as Memrail sees it; f-strings are strings."""
    match value.kind:
        case ValueKind.BOOL:
            return "bool"
        case ValueKind.NUMBER:
            return "float" if isinstance(value.literal, float) else "int"
        case ValueKind.STRING | ValueKind.FORMAT:
            return "str"
        case ValueKind.NONE:
            return "none"
    return "dynamic"


def _read_literal(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    literal = literal_of(value)
    return _not_literal(name, value.text) if literal is NOT_LITERAL else {name: literal}


def _read_type(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    return {name: value_type(value)}


def _read_text(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    return {name: value.text}


def _read_made_by(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    """The resolved name of the call that made the value (`follow = true` reads it through a
    name's one assignment or destructuring); nothing when a call did not, or is not named."""
    made = facts.calls.get(value.call or "") if value.kind is ValueKind.CALL else None
    return {} if made is None or made.callee is None else {name: made.callee}


# An options object that asks only for some calls (a per-call predicate), or that only lets
# the human answer in the tool's place, is no approval of every call.
_SOMETIMES = frozenset({"when"})
_DECISIONS = frozenset({"allowed_decisions", "allowedDecisions"})


def _read_asking_keys(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    """The literal keys of a dict literal whose value asks a human before each call: `True`,
    or an options object with no per-call predicate (`when`) whose allowed decisions, when
    written, are more than answering in the tool's place (`respond`). A key set to `False`,
    or to anything not written as a literal, asks nothing the audit can see; nor does a
    value that is no dict literal (absent: no tool is approved by it)."""
    if value.kind is not ValueKind.DICT:
        return {}
    asking = []
    for key, item in value.entries:
        if not isinstance(key, str):
            continue
        if item.kind is ValueKind.BOOL and item.literal is True:
            asking.append(key)
        elif item.kind is ValueKind.DICT and _asks_each_call(item):
            asking.append(key)
    return {name: tuple(sorted(asking))}


def _asks_each_call(options: Value) -> bool:
    keys = {key for key, _ in options.entries}
    if keys & _SOMETIMES:
        return False
    decisions = next((item for key, item in options.entries if key in _DECISIONS), None)
    if decisions is None:
        return True
    allowed = literal_of(decisions)
    return not (isinstance(allowed, tuple) and set(allowed) <= {"respond"})


def _read_keys(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    if value.kind is not ValueKind.DICT:
        return _not_literal(name, value.text)
    keys = {key for key, _ in value.entries if key is not None}
    attrs: dict[str, AttrValue] = {name: tuple(sorted(keys))}
    if any(key is None for key, _ in value.entries):
        attrs.update(_not_literal(name, value.text))
    return attrs


def _list_calls(value: Value) -> tuple[list[str], bool]:
    """Ids of the calls written literally in a list (`*spread(...)` included), and whether the
    list holds nothing else. A single call stands for the list it returns."""
    if value.kind is ValueKind.CALL and value.call:
        return [value.call], True
    if value.kind is not ValueKind.LIST:
        return [], False
    ids: list[str] = []
    complete = True
    for _, item in value.entries:
        if item.kind is ValueKind.SPREAD and item.entries:
            item = item.entries[0][1]
        if item.kind is ValueKind.CALL and item.call:
            ids.append(item.call)
        else:
            complete = False
    return ids, complete


def _read_call_ids(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    ids, complete = _list_calls(value)
    if not ids and not complete:
        return _not_literal(name, value.text)
    attrs: dict[str, AttrValue] = {name: tuple(ids)}
    return attrs if complete else {**attrs, **_not_literal(name, value.text)}


def _read_atom_calls(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    """Ids of the ATOM-classified calls in a context list (`StateObject(...).to_atoms()`
    counts as its constructor call). Anything else in the list (a variable, a helper call)
    makes the list not fully literal."""
    ids, complete = _list_calls(value)
    atom_ids = tuple(found for found in (_atom_call(call_id, facts) for call_id in ids) if found)
    if complete and len(atom_ids) == len(ids):
        return {name: atom_ids}
    if not atom_ids:
        return _not_literal(name, value.text)
    return {name: atom_ids, **_not_literal(name, value.text)}


def _atom_call(call_id: str, facts: FileFacts) -> str | None:
    """The id of the call whose ATOM sites `call_id` contributes: itself, or for a method on
    an atom-building object (`StateObject(...).to_atoms()`), the call that built it."""
    if call_id in facts.atoms:
        return call_id
    call = facts.calls.get(call_id)
    origin = facts.instance_origin(call) if call is not None else None
    return origin.id if origin is not None and origin.id in facts.atoms else None


def _event_atom(value: Value, facts: FileFacts) -> Site | None:
    if value.kind is not ValueKind.CALL or not value.call:
        return None
    for site in facts.atoms.get(value.call, ()):
        if site.attr("kind") == "event":
            return site
    return None


def _event_object(value: Value) -> Value | None:
    """A TS-style event argument `{ event: event(...) }`: the value under `event`."""
    return value.entry("event") if value.kind is ValueKind.DICT else None


def _subject_verb_object(parts: list[Value | None]) -> AttrValue | Dynamic | None:
    if not parts or any(part is None for part in parts):
        return None
    if all(part.kind is ValueKind.STRING for part in parts):
        return ".".join(str(part.literal) for part in parts)
    return Dynamic(".".join(part.text for part in parts))


def _event_name(value: Value, facts: FileFacts) -> AttrValue | Dynamic:
    """`event("order.refund.issued", …)` → its topic (read from the ATOM site of that call);
    a call with literal `subject=`, `verb=`, `object=` → `subject.verb.object`; an object
    literal (TS) `{ event: event(...) }` or the legacy `{ subject, verb, object }` likewise."""
    if value.kind is ValueKind.DICT:
        inner = _event_object(value)
        if inner is not None:
            return _event_name(inner, facts)
        found = _subject_verb_object([value.entry(part) for part in ("subject", "verb",
                                                                     "object")])
        return found if found is not None else Dynamic(value.text)
    if value.kind is not ValueKind.CALL or not value.call:
        return Dynamic(value.text)
    atom = _event_atom(value, facts)
    if atom is not None:
        key = atom.attr("key")
        return key if key is not None else Dynamic(str(atom.attr("key_text", value.text)))
    call = facts.calls.get(value.call)
    parts = [call.kwarg(part) for part in ("subject", "verb", "object")] if call else []
    found = _subject_verb_object(parts)
    return found if found is not None else Dynamic(value.text)


def _read_event_name(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    found = _event_name(value, facts)
    return _not_literal(name, found.text) if isinstance(found, Dynamic) else {name: found}


def _read_event_names(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    if value.kind is not ValueKind.LIST:
        return _not_literal(name, value.text)
    names = [_event_name(item, facts) for _, item in value.entries]
    attrs: dict[str, AttrValue] = {name: tuple(n for n in names if not isinstance(n, Dynamic))}
    if any(isinstance(n, Dynamic) for n in names):
        attrs.update(_not_literal(name, value.text))
    return attrs


def _read_event_attribute_keys(name: str, value: Value, facts: FileFacts
                               ) -> dict[str, AttrValue]:
    """The literal `attributes={…}` keys of the event an emit call sends: from the event
    builder's ATOM site, or from the `attributes=` keyword of the call itself."""
    if value.kind is ValueKind.DICT:
        inner = _event_object(value)
        if inner is not None:
            return _read_event_attribute_keys(name, inner, facts)
        attributes = value.entry("attributes")
        return {} if attributes is None else _read_keys(name, attributes, facts)
    atom = _event_atom(value, facts)
    if atom is not None:
        attrs: dict[str, AttrValue] = {}
        if atom.attr("attribute_keys") is not None:
            attrs[name] = atom.attr("attribute_keys")
        if atom.attr("attribute_keys_literal") is False:
            attrs.update(_not_literal(name, str(atom.attr("attribute_keys_text", ""))))
        return attrs
    call = facts.calls.get(value.call or "") if value.kind is ValueKind.CALL else None
    if call is None:
        return _not_literal(name, value.text)
    attributes = call.kwarg("attributes")
    return {} if attributes is None else _read_keys(name, attributes, facts)


def _read_definition(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    """The fully qualified name of the function a handler argument refers to, or of the class
    of an object it builds or names; nothing for a boolean (`needs_approval=True` names no
    function)."""
    if value.kind is ValueKind.BOOL:
        return {}
    if value.kind is ValueKind.NAME and value.ref:
        local = facts.local_definition(value.ref)
        if local is not None:
            return {name: qualified(facts.file.module, local.qualname)}
        if value.resolved:
            return {name: value.resolved}
    if value.kind is ValueKind.LAMBDA and value.ref:
        return {name: qualified(facts.file.module, value.ref)}
    built = facts.calls.get(value.call or "") if value.kind is ValueKind.CALL else None
    if built is not None and built.callee and _is_constructor(built):
        # An object built in place (`executor=ShellExecutor()`): its class, whose methods an
        # entry's `methods` name.
        return {name: built.callee}
    return _not_literal(name, value.text)


def _read_known_text(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    """A string's known text (`*` for the holes of a template); nothing when none is known:
    absent, a condition on it cannot hold, so a heuristic never drops what it cannot read."""
    known = known_text(value)
    return {} if known is None else {name: known}


def _read_timezone(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    """Whether a timestamp carries its zone: `aware`, `naive` or `unknown` (`_clock`)."""
    return {name: timestamp_zone(value, facts)}


def _read_entry_reads(name: str, value: Value, facts: FileFacts) -> dict[str, AttrValue]:
    """`{"customer_id": order.id}` → `(("customer_id", "order.id"),)`: for each literal key,
    the one access path its value reads (`str(order.id)` and `f"{order.id}"` read `order.id`);
    a value reading none or several is left out. Not a dict literal: not literal."""
    if value.kind is not ValueKind.DICT:
        return _not_literal(name, value.text)
    pairs = []
    for key, item in value.entries:
        path = item.ref if item.kind is ValueKind.NAME else \
            item.reads[0] if len(item.reads) == 1 else None
        if key is not None and path:
            pairs.append((key, path))
    return {name: tuple(pairs)}


_READERS = {
    Extract.LITERAL: _read_literal,
    Extract.TYPE: _read_type,
    Extract.TEXT: _read_text,
    Extract.KEYS: _read_keys,
    Extract.ATOM_CALLS: _read_atom_calls,
    Extract.CALL_IDS: _read_call_ids,
    Extract.EVENT_NAME: _read_event_name,
    Extract.EVENT_NAMES: _read_event_names,
    Extract.EVENT_ATTRIBUTE_KEYS: _read_event_attribute_keys,
    Extract.DEFINITION: _read_definition,
    Extract.KNOWN_TEXT: _read_known_text,
    Extract.TIMEZONE: _read_timezone,
    Extract.ENTRY_READS: _read_entry_reads,
    Extract.ASKING_KEYS: _read_asking_keys,
    Extract.MADE_BY: _read_made_by,
}
