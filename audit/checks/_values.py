"""What an IR value stands for, as far as the repository says: the constant a name is bound
to, the option a decide call receives, the string a prompt is made of.

Checks use these to tell a literal-in-effect (`decision_point=REFUND_POINT` with
`REFUND_POINT = "support.refund"` at module level) from a value computed at run time. A name is
followed only when exactly one assignment binds it in the innermost scope that binds it (or its
module, through an import of a repo module); anything else is "unknown", never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from topo.analyzers.ir import MODULE_SCOPE, Call, FileIR, Value, ValueKind
from topo.analyzers.paths import segments
from topo.audit.checks._registry import CheckContext

__all__ = ["Bound", "bound", "string_constant", "prompt_text", "option", "imported_from",
           "module_file", "scope_chain"]

_MAX_HOPS = 4


@dataclass(frozen=True, slots=True)
class Bound:
    """A value together with the file and scope it is evaluated in."""

    file: FileIR
    scope: str
    value: Value


def scope_chain(scope: str) -> list[str]:
    """`a.b` -> [`a.b`, `a`, `<module>`]: where a name read in `scope` may be bound."""
    if scope == MODULE_SCOPE:
        return [MODULE_SCOPE]
    parts = scope.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)] + [MODULE_SCOPE]


def module_file(ctx: CheckContext, module: str) -> FileIR | None:
    return ctx.index.by_module.get(module)


def imported_from(file: FileIR, name: str) -> tuple[str, str | None] | None:
    """(module, name) that a module-level import binds to `name`, or None."""
    for one in file.imports:
        if one.alias == name and one.scope == MODULE_SCOPE:
            return one.module, one.name
    return None


def bound(ctx: CheckContext, item: Bound, hops: int = _MAX_HOPS) -> Bound:
    """Follow a plain name (`POINT`, `opts`) to the one value bound to it; otherwise the
    value itself."""
    value = item.value
    if hops <= 0 or value.kind is not ValueKind.NAME or not value.ref:
        return item
    if value.resolved and "." in value.resolved:
        module, name = value.resolved.rsplit(".", 1)
        target = module_file(ctx, module)
        if target is not None:          # `points.REFUND` through `import app.points as points`
            plain = Value(ValueKind.NAME, name, ref=name, reads=(name,))
            followed = bound(ctx, Bound(target, MODULE_SCOPE, plain), hops - 1)
            return item if followed.value is plain else followed
    if segments(value.ref) != [value.ref]:
        return item                     # an attribute or subscript: not a binding
    for scope in scope_chain(item.scope):
        found = [a for a in item.file.assignments
                 if a.scope == scope and a.target == value.ref]
        if found:
            if len(found) != 1 or found[0].augmented or found[0].element:
                return item
            return bound(ctx, Bound(item.file, scope, found[0].value), hops - 1)
    source = imported_from(item.file, value.ref)
    target = module_file(ctx, source[0]) if source and source[1] else None
    if target is None or source is None:
        return item
    name = Value(ValueKind.NAME, str(source[1]), ref=str(source[1]), reads=(str(source[1]),))
    followed = bound(ctx, Bound(target, MODULE_SCOPE, name), hops - 1)
    return item if followed.value is name else followed


def string_constant(ctx: CheckContext, item: Bound) -> str | None:
    """The string a value always is (a literal, or a name bound once to one), else None."""
    value = bound(ctx, item).value
    if value.kind is ValueKind.STRING and isinstance(value.literal, str):
        return value.literal
    return None


def prompt_text(ctx: CheckContext, item: Bound) -> str:
    """The text of an instruction value: a literal's content; for an f-string, concatenation
    or join, its source (whose literal parts are what the model is told) followed by the
    constants its holes name."""
    followed = bound(ctx, item)
    value = followed.value
    if value.kind is ValueKind.STRING and isinstance(value.literal, str):
        return value.literal
    if value.kind is ValueKind.LIST:
        return "\n".join(prompt_text(ctx, Bound(followed.file, followed.scope, v))
                         for _, v in value.entries)
    if value.kind not in (ValueKind.FORMAT, ValueKind.OTHER, ValueKind.CALL):
        return ""
    holes = (string_constant(ctx, Bound(followed.file, followed.scope, Value(
        ValueKind.NAME, read, ref=read, reads=(read,)))) for read in value.reads)
    return "\n".join([value.text, *(hole for hole in holes if hole)])


def option(ctx: CheckContext, file: FileIR, call: Call, key: str,
           holder: str = "options") -> Bound | None:
    """The `key` of a call's options: `options=InvokeOptions(key=…)`, `options={"key": …}`,
    or a name bound to either (`opts = InvokeOptions(…)`; `options=opts`)."""
    value = call.kwarg(holder)
    if value is None and call.args:
        value = call.args[0].entry(holder)     # TS style: decide({ options: { … } })
    if value is None:
        return None
    options = bound(ctx, Bound(file, call.scope, value))
    match options.value.kind:
        case ValueKind.DICT:
            entry = options.value.entry(key)
            return None if entry is None else Bound(options.file, options.scope, entry)
        case ValueKind.CALL:
            found = ctx.calls.get(options.value.call or "")
            entry = found[1].kwarg(key) if found else None
            return None if entry is None or found is None else \
                Bound(found[0], found[1].scope, entry)
    return None

