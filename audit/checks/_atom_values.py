"""The type and the value domain of each atom's value, where the code says them.

Seed 000's atom contract lists, for every state and tag candidate, its "type"; the
reachability pass asks for "values, not just keys" and "fixed taxonomies for model-derived
tags". A literal value says its type itself (the pack's `value_type`). Otherwise the type comes
from what the code declares about the value, read in this order:

- a **validator** the value passes through: the fixed sets `_domains` reads (a repo `Enum`
  called on it, `TypeAdapter(Literal[...])`, zod's `z.enum([...]).parse`, a membership guard)
  give `str` and their members; a conversion gives its type (`int(x)`, `float(x)`, `str(x)`,
  `bool(x)`, `Number(x)`, `String(x)`, `parseInt(x)`, `x.lower()`, `x.trim()`);
- a **parameter annotation** when the value is a parameter (`amount: int`,
  `prio: Priority`, `kind: Literal["a", "b"]`, TS `amount: number`, `tier: 'gold' | 'silver'`);
- a **schema field** when it is read from a parameter typed by a repo class (a pydantic model,
  a dataclass, a TS class): `ticket.amount_cents` with `ticket: Ticket` (or
  `ticket = Ticket(...)`) and `amount_cents: int` in `Ticket`; or from what an object schema the packs know parsed
  (`[schema_fields]`: `r.amount` with `r = Refund.parse(body)` and
  `Refund = z.object({ amount: z.number() })`; `z.enum([...])` gives the domain too).

A local name is followed to its one assignment first (`amount = int(raw)`). `Optional[...]`,
`X | None` and TS `| null | undefined` are read through; any other union, a generic or an
unknown class gives no type. Types are spelt as the pack's `value_type` spells them (`int`,
`float`, `str`, `bool`), and TS `number` as `number` (integer or not, TS does not say).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from topo.analyzers.ir import Call, FileIR, Language, Parameter, Value, ValueKind
from topo.analyzers.model import SiteKind
from topo.audit.checks._domains import value_domain
from topo.audit.checks._registry import CheckContext
from topo.audit.checks._validation import is_enum_class, receiver_call
from topo.audit.checks._values import Bound, bound, imported_from, scope_chain

__all__ = ["AtomValue", "atom_values"]


@dataclass(frozen=True, slots=True)
class AtomValue:
    """What the code declares about an atom's value: its type (None when it does not say),
    the fixed set of strings it can take (None when no set), and where that was read
    (`validator`, `annotation` or `schema`)."""

    type: str | None
    domain: tuple[str, ...] | None
    source: str


# The language's own conversions (builtins), by resolved callee and by method name.
_CONVERSIONS = {"builtins.int": "int", "builtins.float": "float", "builtins.str": "str",
                "builtins.bool": "bool", "decimal.Decimal": "float", "builtins.len": "int",
                "globalThis.Number": "number", "globalThis.String": "str",
                "globalThis.Boolean": "bool", "globalThis.parseInt": "int",
                "globalThis.parseFloat": "float", "globalThis.Number.parseInt": "int",
                "globalThis.Number.parseFloat": "float"}
_TEXT_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title",
                           "toLowerCase", "toUpperCase", "trim", "trimStart", "trimEnd"})
_PY_TYPES = {"int": "int", "float": "float", "str": "str", "bool": "bool", "Decimal": "float",
             "decimal.Decimal": "float"}
_TS_TYPES = {"number": "number", "string": "str", "boolean": "bool", "bigint": "int"}
_NOTHING = frozenset({"None", "NoneType", "null", "undefined"})
_TS_STRING = re.compile(r"""^(['"])(.*)\1$""")
_MAX_CHAIN = 8


def atom_values(ctx: CheckContext) -> dict[str, AtomValue]:
    """Every state or tag atom whose value's type or domain the code declares, by site id."""
    found: dict[str, AtomValue] = {}
    for site in ctx.facts.sites:
        if site.kind is not SiteKind.ATOM or site.attr("kind") not in ("state", "tag") \
                or site.attr("expanded"):
            continue
        located = ctx.calls.get(str(site.attr("call")))
        argument = _value_argument(located[1]) if located is not None else None
        if located is None or argument is None:
            continue
        value = _declared(ctx, located[0], located[1], argument)
        if value is not None:
            found[site.id] = value
    return found


def _value_argument(call: Call) -> Value | None:
    """`state(k, v)`, `tag(kind, v)`, or `value=`."""
    return call.kwarg("value") or (call.args[1] if len(call.args) > 1 else None)


def _declared(ctx: CheckContext, file: FileIR, call: Call, value: Value) -> AtomValue | None:
    domain = value_domain(ctx, file, call, value)
    if domain:
        return AtomValue("str", tuple(sorted(domain)), "validator")
    held = bound(ctx, Bound(file, call.scope, value))
    if held.value.kind is ValueKind.CALL:
        converted = _conversion(ctx, held.value)
        return None if converted is None else AtomValue(converted, None, "validator")
    if held.value.kind is not ValueKind.NAME or not held.value.ref:
        return None
    head, _, rest = held.value.ref.partition(".")
    parameter = _parameter(ctx, held.file, held.scope, head)
    if parameter is None:
        return _parsed_field(ctx, held.file, held.scope, head, rest) if rest else None
    if not rest:
        return _annotated(ctx, held.file, parameter.annotation, "annotation")
    return _field(ctx, parameter, rest)


def _conversion(ctx: CheckContext, value: Value) -> str | None:
    found = ctx.calls.get(value.call or "")
    if found is None:
        return None
    call = found[1]
    if call.callee in _CONVERSIONS:
        return _CONVERSIONS[call.callee or ""]
    return "str" if call.name in _TEXT_METHODS and call.receiver else None


def _parameter(ctx: CheckContext, file: FileIR, scope: str, name: str) -> Parameter | None:
    """The parameter `name` of the innermost function of `scope` that takes it, unless a
    local assignment rebinds it."""
    for candidate in scope_chain(scope)[:-1]:
        if any(a.target == name and a.scope == candidate for a in file.assignments):
            return None
        found = ctx.facts.graph.definitions.get(f"{file.module}.{candidate}")
        if found is None:
            continue
        for parameter in found[1].parameters:
            if parameter.name == name:
                return parameter
    return None


def _field(ctx: CheckContext, parameter: Parameter, rest: str) -> AtomValue | None:
    """`ticket.amount_cents` with `ticket: Ticket`: the annotation of `amount_cents` in the
    repo class `Ticket`."""
    if "." in rest or parameter.type is None:
        return None
    found = ctx.facts.graph.definitions.get(parameter.type)
    if found is None:
        return None
    file, definition = found
    annotation = dict(definition.annotations).get(rest)
    return _annotated(ctx, file, annotation, "schema")


def _parsed_field(ctx: CheckContext, file: FileIR, scope: str, head: str,
                  rest: str) -> AtomValue | None:
    """`t.amount_cents` with `t = Ticket(...)` (a repo class built in place): its field's
    annotation; `r.amount` with `r = Refund.parse(body)` and `Refund` an object schema the
    packs know (`z.object({ amount: z.number() })`): the type its field constructor
    validates."""
    knowledge = ctx.facts.knowledge
    held = bound(ctx, Bound(file, scope, Value(ValueKind.NAME, head, ref=head)))
    found = ctx.calls.get(held.value.call or "") if held.value.kind is ValueKind.CALL else None
    built = ctx.facts.graph.definitions.get(found[1].callee or "") if found is not None \
        else None
    if built is not None and "." not in rest:      # `ticket = Ticket(...)`: an instance
        annotation = dict(built[1].annotations).get(rest)
        return _annotated(ctx, built[0], annotation, "schema")
    schema = receiver_call(ctx, *found) if found is not None and "." not in rest else None
    if schema is None or not knowledge.builds_object_schema(schema[1].callee) \
            or not schema[1].args:
        return None
    fields = bound(ctx, Bound(schema[0], schema[1].scope, schema[1].args[0])).value
    entry = fields.entry(rest) if fields.kind is ValueKind.DICT else None
    call = ctx.calls.get(entry.call or "") if entry is not None and \
        entry.kind is ValueKind.CALL else None
    for _ in range(_MAX_CHAIN):
        if call is None:
            return None
        kind = knowledge.field_type(call[1].callee)
        if kind is not None:
            listed = _listed(call[1]) if knowledge.lists_field_values(call[1].callee) else None
            return AtomValue(kind, listed, "schema")
        call = ctx.calls.get(call[1].chained_on or "")   # `z.number().int()`: its base
    return None


def _listed(call: Call) -> tuple[str, ...] | None:
    first = call.args[0] if call.args else None
    if first is None or first.kind is not ValueKind.LIST or not first.entries or \
            not all(v.kind is ValueKind.STRING for _, v in first.entries):
        return None
    return tuple(sorted(str(v.literal) for _, v in first.entries))


def _annotated(ctx: CheckContext, file: FileIR, annotation: str | None,
               source: str) -> AtomValue | None:
    if not annotation:
        return None
    read = _ts_annotation(annotation) if file.language is not Language.PYTHON else \
        _py_annotation(ctx, file, annotation)
    if read is None:
        return None
    return AtomValue(read[0], read[1], source)


# ---- Python annotations ------------------------------------------------------------------

def _py_annotation(ctx: CheckContext, file: FileIR, text: str
                   ) -> tuple[str, tuple[str, ...] | None] | None:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _py_annotation(ctx, file, node.value)      # a string annotation
    node = _without_none(node)
    if node is None:
        return None
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).split(".")[-1] == "Literal":
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        members = [i.value for i in items if isinstance(i, ast.Constant)]
        if len(members) != len(items) or not members:
            return None
        if all(isinstance(m, str) for m in members):
            return "str", tuple(sorted(str(m) for m in members))
        kinds = {_PY_TYPES.get(type(m).__name__) for m in members}
        return (kinds.pop(), None) if len(kinds) == 1 and None not in kinds else None
    written = ast.unparse(node)
    if written in _PY_TYPES:
        return _PY_TYPES[written], None
    cls = _py_class(ctx, file, written)
    if cls is not None and is_enum_class(ctx, cls):
        values = _enum_strings(ctx, cls)
        return ("str", values) if values is not None else None
    return None


def _without_none(node: ast.expr) -> ast.expr | None:
    """`Optional[X]`, `X | None`, `Union[X, None]` → X; another union → None."""
    if isinstance(node, ast.Subscript):
        head = ast.unparse(node.value).split(".")[-1]
        if head == "Optional":
            return node.slice
        if head == "Union":
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            kept = [i for i in items if ast.unparse(i) not in _NOTHING]
            return kept[0] if len(kept) == 1 else None
        return node
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        kept = [i for i in (node.left, node.right) if ast.unparse(i) not in _NOTHING]
        return _without_none(kept[0]) if len(kept) == 1 else None
    return node


def _py_class(ctx: CheckContext, file: FileIR, written: str) -> str | None:
    """The repo class a name written in `file` denotes (defined there or imported)."""
    head, _, rest = written.partition(".")
    local = f"{file.module}.{written}"
    if local in ctx.facts.graph.definitions:
        return local
    imported = imported_from(file, head)
    if imported is None:
        return None
    module, name = imported
    dotted = ".".join(part for part in (module, name, rest) if part)
    return dotted if dotted in ctx.facts.graph.definitions else None


def _enum_strings(ctx: CheckContext, cls: str) -> tuple[str, ...] | None:
    file, definition = ctx.facts.graph.definitions[cls]
    values = [a.value.literal for a in file.assignments if a.scope == definition.qualname]
    return tuple(sorted(values)) if values and all(isinstance(v, str) for v in values) \
        else None


# ---- TypeScript annotations --------------------------------------------------------------

def _ts_annotation(text: str) -> tuple[str, tuple[str, ...] | None] | None:
    parts = [p.strip() for p in text.split("|") if p.strip()]
    kept = [p for p in parts if p not in _NOTHING]
    if not kept or any(ch in text for ch in "<>{}[]()&"):
        return None
    strings = [_TS_STRING.match(p) for p in kept]
    if all(strings):
        return "str", tuple(sorted(m.group(2) for m in strings if m))
    if len(kept) == 1 and kept[0] in _TS_TYPES:
        return _TS_TYPES[kept[0]], None
    return None
