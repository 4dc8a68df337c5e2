"""DYNAMIC-DECISION-POINT: the decision point a call names is not fixed in the code.

Seed 000, "Decision points": "Choose the name in application code, never from model output or
an unchecked request field." A decision point selects which policies apply; when the caller
(or the model) picks the name, it picks the policy, including one with no EMUs bound, which
selects nothing.

Not reported: a name bound once to a string literal (`decision_point=REFUND_POINT`, also
through an import of a repo module), and a parameter of a wrapper whose every caller in the
repository passes such a constant. The message says where the value comes from when the flows
show it: model output, a parameter of a function nothing in the repository calls (an entry
point, so a request), or a parameter its callers fill with computed values.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.ir import Call, DefinitionKind, FileIR, Value, ValueKind
from topo.analyzers.paths import root_of
from topo.audit import codes
from topo.audit.checks._evidence import callee_text, locations, origin_text
from topo.audit.checks._registry import CheckContext, check
from topo.audit.checks._values import Bound, string_constant
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import SiteKind
from topo.audit.model import Finding

__all__ = ["dynamic_decision_point"]

_NAMES = ("decision_point", "decisionPoint")
_SELF = frozenset({"self", "cls"})


@check(codes.DYNAMIC_DECISION_POINT)
def dynamic_decision_point(ctx: CheckContext) -> Iterator[Finding]:
    for decision in sites_of_kind(ctx.graph, SiteKind.DECISION_CALL):
        found = ctx.calls.get(str(decision.attr("call")))
        if decision.attr("decision_point_literal") is not False or found is None:
            continue
        file, call = found
        value = _point(call)
        if value is None:
            continue
        item = Bound(file, call.scope, value)
        if string_constant(ctx, item) is not None or _callers_pass_constants(ctx, item):
            continue
        labels = sorted(ctx.facts.model.value_labels(file, call.scope, value))
        yield ctx.finding(
            codes.DYNAMIC_DECISION_POINT, location=decision.location, symbol=decision.symbol,
            message=f"the decision point of `{callee_text(decision)}` is `{value.text}`, which "
                    f"{_provenance(ctx, item, labels)}",
            snippet=value.text, path=(*labels, decision.id), related=locations(ctx, labels),
            inferred=bool(labels))


def _point(call: Call) -> Value | None:
    for name in _NAMES:
        value = call.kwarg(name) or (call.args[0].entry(name) if call.args else None)
        if value is not None:
            return value
    return None


def _provenance(ctx: CheckContext, item: Bound, labels: list[str]) -> str:
    if labels:
        return f"comes from model output of {origin_text(ctx, labels)}"
    parameter = _parameter(ctx, item)
    if parameter is None:
        return "is computed at run time"
    key = function_key(item.file, item.scope)
    if not any(edge.callee == key for edge in ctx.facts.graph.edges):
        return f"is request-derived (parameter `{parameter}` of the entry point `{key}`)"
    return f"comes from callers of `{key}` (parameter `{parameter}`)"


def _parameter(ctx: CheckContext, item: Bound) -> str | None:
    """The parameter of the enclosing function that the value reads, if any."""
    found = ctx.facts.graph.definitions.get(function_key(item.file, item.scope))
    if found is None:
        return None
    names = {p.name for p in found[1].parameters}
    roots = [root_of(read) for read in item.value.reads]
    return next((r for r in roots if r in names), None)


def _callers_pass_constants(ctx: CheckContext, item: Bound) -> bool:
    """A wrapper `def run(point): client.decide(decision_point=point, …)` whose callers all
    pass string constants names its decision points in code after all."""
    value = item.value
    found = ctx.facts.graph.definitions.get(function_key(item.file, item.scope))
    if found is None or value.kind is not ValueKind.NAME or value.ref is None:
        return False
    definition = found[1]
    parameters = [p for p in definition.parameters
                  if not (definition.kind is DefinitionKind.METHOD and p.name in _SELF)]
    names = [p.name for p in parameters]
    if value.ref not in names:
        return False
    key = function_key(item.file, item.scope)
    edges = [e for e in ctx.facts.graph.edges if e.callee == key and e.call in ctx.calls]
    return bool(edges) and all(
        _argument_constant(ctx, *ctx.calls[e.call], names, value.ref) for e in edges)


def _argument_constant(ctx: CheckContext, file: FileIR, call: Call, names: list[str],
                       parameter: str) -> bool:
    argument = call.kwarg(parameter)
    index = names.index(parameter)
    if argument is None and index < len(call.args):
        argument = call.args[index]
    return argument is not None and \
        string_constant(ctx, Bound(file, call.scope, argument)) is not None
