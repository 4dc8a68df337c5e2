"""The fixed set of strings a value can take, when the code validates it against one.

Seed 000 asks for "fixed taxonomies for model-derived tags", and the reachability pass for
"values, not just keys": an EMU that waits for `tag.priority == 'urgent'` while the code only
ever tags `Priority(raw).value` with `Priority` = {low, high} can never match. The forms read
here are the ones `_validation` accepts as validation, now asked for their members:

- a repo `Enum` class called on the value (`Priority(raw)`, and its `.value`): the string
  values its class body assigns;
- `TypeAdapter(Literal["a", "b"]).validate_python(raw)` (also through an adapter bound to a
  name): the literal's members;
- zod's `z.enum(["a", "b"]).parse(raw)` (a VALIDATION site), directly or through a schema bound
  to a constant;
- a membership guard on the call that uses the value (`if x not in ALLOWED: raise` before it,
  or inside `if x in ALLOWED:`), ALLOWED a collection of string literals.

Anything else is no domain (None), and no domain never yields a finding.
"""

from __future__ import annotations

import ast

from topo.analyzers.ir import Call, FileIR, Value, ValueKind
from topo.analyzers.paths import segments
from topo.audit.checks._registry import CheckContext
from topo.audit.checks._validation import (ADAPTER_VALIDATORS, adapter_type, is_enum_class,
                                           receiver_call)
from topo.audit.checks._values import Bound, bound
from topo.analyzers.model import SiteKind

__all__ = ["value_domain"]

_MEMBER_SUFFIXES = (".value", ".name")


def value_domain(ctx: CheckContext, file: FileIR, call: Call, value: Value) -> \
        frozenset[str] | None:
    """The strings `value` (an argument of `call`) can hold, or None when not a fixed set."""
    guarded = _membership_domain(ctx, file, call, value)
    if guarded is not None:
        return guarded
    if value.kind is ValueKind.NAME and value.ref and value.ref.endswith(_MEMBER_SUFFIXES):
        value = Value(ValueKind.NAME, value.ref.rsplit(".", 1)[0],
                      ref=value.ref.rsplit(".", 1)[0])
    held = bound(ctx, Bound(file, call.scope, value))
    if held.value.kind is not ValueKind.CALL:
        return None
    found = ctx.calls.get(held.value.call or "")
    return _validator_domain(ctx, *found) if found is not None else None


def _validator_domain(ctx: CheckContext, file: FileIR, call: Call) -> frozenset[str] | None:
    callee = call.callee or ""
    enum = _enum_values(ctx, callee)
    if enum is not None:
        return enum
    if callee in ADAPTER_VALIDATORS:
        return _adapter_domain(ctx, file, call)
    if any(site.kind is SiteKind.VALIDATION
           for site in ctx.index.sites_by_call.get(call.id, ())):
        return _zod_domain(ctx, file, call)
    return None


def _enum_values(ctx: CheckContext, name: str) -> frozenset[str] | None:
    if not is_enum_class(ctx, name):
        return None
    file, definition = ctx.facts.graph.definitions[name]
    values = [a.value.literal for a in file.assignments if a.scope == definition.qualname]
    return frozenset(values) if values and all(isinstance(v, str) for v in values) else None


def _adapter_domain(ctx: CheckContext, file: FileIR, call: Call) -> frozenset[str] | None:
    """The adapter's type: a `Literal[...]` of strings, or a repo Enum."""
    adapter = adapter_type(ctx, file, call)
    if adapter is None:
        return None
    kind = bound(ctx, adapter).value
    if kind.resolved:
        enum = _enum_values(ctx, kind.resolved)
        if enum is not None:
            return enum
    return _literal_members(kind.text)


def _literal_members(text: str) -> frozenset[str] | None:
    """The members of `Literal["a", "b"]` as written (parsed, never evaluated)."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if not isinstance(node, ast.Subscript) or not segments(ast.unparse(node.value))[-1:] == \
            ["Literal"]:
        return None
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    members = [i.value for i in items if isinstance(i, ast.Constant)]
    return frozenset(members) if len(members) == len(items) and \
        all(isinstance(m, str) for m in members) else None


def _zod_domain(ctx: CheckContext, file: FileIR, call: Call) -> frozenset[str] | None:
    """`z.enum([...]).parse(x)`, or `Schema.parse(x)` with `const Schema = z.enum([...])`."""
    base = receiver_call(ctx, file, call)
    if base is None or not base[1].args:
        return None
    return _strings(bound(ctx, Bound(base[0], base[1].scope, base[1].args[0])).value)


def _membership_domain(ctx: CheckContext, file: FileIR, call: Call, value: Value) -> \
        frozenset[str] | None:
    if value.ref is None:
        return None
    for guard in call.guards:
        for comparison in guard.condition.comparisons if guard.condition else ():
            if comparison.right is None or comparison.left.ref != value.ref:
                continue
            if (comparison.op, guard.polarity) in (("in", True), ("not in", False)):
                found = _strings(bound(ctx, Bound(file, call.scope, comparison.right)).value)
                if found is not None:
                    return found
    return None


def _strings(value: Value) -> frozenset[str] | None:
    """The members of a list/tuple/set literal of strings (or a dict's keys), else None."""
    if value.kind is ValueKind.LIST and value.entries and \
            all(v.kind is ValueKind.STRING for _, v in value.entries):
        return frozenset(str(v.literal) for _, v in value.entries)
    if value.kind is ValueKind.DICT and value.entries and \
            all(isinstance(k, str) for k, _ in value.entries):
        return frozenset(str(k) for k, _ in value.entries)
    return None
