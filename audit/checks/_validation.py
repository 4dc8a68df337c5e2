"""When is a model-derived value validated against a fixed set?

Seed 000, "The authority boundary": "Use fixed taxonomies for model-derived tags … Validate
actual runtime output; a type annotation alone does not do this." Three forms are recognised:

1. A *validator call*: a VALIDATION site of a rule pack (zod's `z.enum([...]).parse(x)`);
   `TypeAdapter(T).validate_python(x)` (also `validate_json`, `validate_strings`, and an
   adapter bound to a name first) where `T` is a `Literal[...]` or an `Enum` class (directly
   or through a type alias); or a call of a repo `Enum` class, `Intent(x)`. Such calls become
   *barriers* in a second run of the model-output propagation
   (`analyzers.flow.dataflow.propagate`): their results are fresh values, so validation anywhere
   upstream, in another function or file, clears the value (the refund agent validates in
   `classify_intent` and tags the result in `handle_refund`).
2. A *membership guard* dominating the use: `if x not in ALLOWED: raise` before it, or the use
   inside `if x in ALLOWED:`.
3. A *clamp*: the value is a variable assigned an expression that combines the model value with
   a constant collection, `x if x in ALLOWED else "other"`. The IR summarises a conditional
   expression as one value with the names it reads, so reading a module-level collection of
   literals next to the model value is what identifies it.

Why not only a rule pack: an API name is enough for `z.enum(...).parse` (a pack entry), but
whether `validate_python` validates against a fixed set depends on the type the adapter was
built with, and forms 2 and 3 are not calls at all.
"""

from __future__ import annotations

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.flow.dataflow import Flow, Seeds, propagate
from topo.analyzers.flow.derived import CONTROL_KINDS
from topo.analyzers.ir import Call, FileIR, LITERAL_KINDS, Value, ValueKind
from topo.analyzers.paths import root_of, segments
from topo.audit.checks._registry import CheckContext
from topo.audit.checks._values import Bound, bound, imported_from, scope_chain
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import SiteKind

__all__ = ["validated_model_flow", "validator_calls", "membership_guarded", "clamped",
           "receiver_call", "adapter_type", "is_enum_class", "ADAPTER_VALIDATORS"]

_ADAPTER = "pydantic.TypeAdapter"
# `TypeAdapter(T).<method>(x)` validates x against T.
ADAPTER_VALIDATORS = frozenset(f"{_ADAPTER}.{m}" for m in
                               ("validate_python", "validate_json", "validate_strings"))
_LITERALS = frozenset({("typing", "Literal"), ("typing_extensions", "Literal")})


def validated_model_flow(ctx: CheckContext) -> Flow:
    """Model-output labels propagated again, with validator calls as barriers."""
    calls: dict[str, frozenset[str]] = {}
    for site in sites_of_kind(ctx.graph, SiteKind.INFERENCE):
        if isinstance(site.attr("call"), str):
            calls[str(site.attr("call"))] = calls.get(str(site.attr("call")),
                                                      frozenset()) | {site.id}
    controls = {str(s.attr("call")) for s in sites_of_kind(ctx.graph, *CONTROL_KINDS)
                if s.attr("call")}
    seeds = Seeds(calls=calls, parameters=_tool_parameters(ctx),
                  barriers=frozenset(controls | validator_calls(ctx)))
    return propagate(ctx.facts.files, ctx.facts.graph, seeds, ctx.facts.flow_index)


def _tool_parameters(ctx: CheckContext) -> dict[str, dict[str, frozenset[str]]]:
    """The tool parameters the first propagation seeded: those labelled with their own
    tool's registration (so the seeding rules stay written once, in `analyzers.flow.facts`)."""
    parameters: dict[str, dict[str, frozenset[str]]] = {}
    for tool in sites_of_kind(ctx.graph, SiteKind.TOOL_REGISTRATION):
        found = ctx.facts.graph.definitions.get(str(tool.attr("definition")))
        if found is None:
            continue
        file, definition = found
        names = ctx.facts.model.names.get((file.path, definition.qualname), {})
        seeded = {p.name: frozenset({tool.id}) for p in definition.parameters
                  if tool.id in names.get(p.name, frozenset())}
        if seeded:
            parameters[function_key(file, definition.qualname)] = seeded
    return parameters


def validator_calls(ctx: CheckContext) -> frozenset[str]:
    """Ids of the calls that validate their argument against a fixed set: VALIDATION sites
    from the rule packs (`z.enum([...]).parse(x)`), and the Python forms recognised here."""
    found = {str(s.attr("call")) for s in sites_of_kind(ctx.graph, SiteKind.VALIDATION)
             if s.attr("call")}
    for file, call in ctx.calls.values():
        if _is_validator(ctx, file, call):
            found.add(call.id)
    return frozenset(found)


def _is_validator(ctx: CheckContext, file: FileIR, call: Call) -> bool:
    callee = call.callee or ""
    if callee in ADAPTER_VALIDATORS:
        adapter = adapter_type(ctx, file, call)
        return adapter is not None and _is_fixed_set_type(ctx, adapter)
    return is_enum_class(ctx, callee)


def receiver_call(ctx: CheckContext, file: FileIR, call: Call) -> tuple[FileIR, Call] | None:
    """The call that built what `call` is made on: the base of a chain (`TypeAdapter(T)` in
    `TypeAdapter(T).validate_python(x)`) or the one call its receiver name is bound to
    (`adapter = TypeAdapter(T)`, `const Schema = z.enum([...])`)."""
    base = ctx.calls.get(call.id.rsplit("+", 1)[0]) if "+" in call.id else None
    if base is None and call.receiver:
        receiver = Value(ValueKind.NAME, call.receiver, ref=call.receiver)
        held = bound(ctx, Bound(file, call.scope, receiver)).value
        base = ctx.calls.get(held.call or "") if held.kind is ValueKind.CALL else None
    return base


def adapter_type(ctx: CheckContext, file: FileIR, call: Call) -> Bound | None:
    """`T` of `TypeAdapter(T).validate_python(x)` or of `adapter = TypeAdapter(T)`."""
    base = receiver_call(ctx, file, call)
    if base is None or base[1].callee != _ADAPTER or not base[1].args:
        return None
    return Bound(base[0], base[1].scope, base[1].args[0])


def _is_fixed_set_type(ctx: CheckContext, item: Bound) -> bool:
    followed = bound(ctx, item)
    value = followed.value
    if value.kind is not ValueKind.NAME or not value.ref:
        return False
    parts = [p for p in segments(value.ref) if not p.startswith("[")]
    source = imported_from(followed.file, parts[0]) if parts else None
    if source is not None and (source[0], source[1] or (parts[1:2] or [""])[0]) in _LITERALS:
        return True
    qualified = value.resolved or f"{followed.file.module}.{value.ref}"
    return is_enum_class(ctx, qualified)


def is_enum_class(ctx: CheckContext, name: str) -> bool:
    """A repo class deriving from an Enum (`class Priority(str, enum.Enum)`)."""
    found = ctx.facts.graph.definitions.get(name)
    return found is not None and any(base.startswith("enum.") or base.endswith("Enum")
                                     for base in found[1].bases)


def membership_guarded(ctx: CheckContext, file: FileIR, call: Call, value: Value) -> bool:
    """Whether a test `value in COLLECTION` must have held for `call` to run."""
    model = ctx.facts.model
    for guard in call.guards:
        for comparison in guard.condition.comparisons if guard.condition else ():
            tested, other = comparison.left, comparison.right
            if other is None or tested.ref is None or tested.ref != value.ref or \
                    model.value_labels(file, call.scope, other):
                continue
            if (comparison.op, guard.polarity) in (("in", True), ("not in", False)):
                return True
    return False


def clamped(ctx: CheckContext, file: FileIR, scope: str, value: Value) -> bool:
    """Whether a variable is only ever assigned a clamp of the model value to a constant
    collection (`x if x in ALLOWED else "other"`)."""
    if value.kind is not ValueKind.NAME or not value.ref or segments(value.ref) != [value.ref]:
        return False
    for candidate in scope_chain(scope):
        found = [a for a in file.assignments if a.scope == candidate and a.target == value.ref]
        if found:
            return all(a.value.kind is ValueKind.OTHER and any(
                _is_constant_collection(ctx, file, candidate, root_of(read))
                for read in a.value.reads) for a in found)
    return False


def _is_constant_collection(ctx: CheckContext, file: FileIR, scope: str, name: str) -> bool:
    held = bound(ctx, Bound(file, scope, Value(ValueKind.NAME, name, ref=name))).value
    if held.kind is ValueKind.CALL:         # frozenset({...}), tuple([...])
        found = ctx.calls.get(held.call or "")
        args = found[1].args if found and found[1].callee in (
            "builtins.frozenset", "builtins.set", "builtins.tuple") else ()
        held = args[0] if len(args) == 1 else held
    return held.kind in (ValueKind.LIST, ValueKind.DICT) and bool(held.entries) and all(
        (v.kind in LITERAL_KINDS) if held.kind is ValueKind.LIST else key is not None
        for key, v in held.entries)
