"""HIDDEN-AUTHORITY: a threshold or branch on a model-derived value selects a consequential
action (seed 000, "Inventory hidden authority": a score above 0.8 issues a refund), or the
model plans which delegate acts (MemoRizz LLM-planned delegation, seed 002)."""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.flow.derived import is_protocol_test
from topo.audit import codes
from topo.audit.graph.chains import Chain
from topo.audit.checks._registry import CheckContext, check, executor_severity
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Location, Site, SiteKind
from topo.audit.model import Finding, Severity

__all__ = ["hidden_authority", "gate_text"]


def gate_text(gate: Site) -> str:
    """The test as a reader would write it: `score > 0.8`, `"approve" in text`, `ok`."""
    operand, op, value = gate.attr("operand"), gate.attr("op"), gate.attr("value")
    match op:
        case "truthy" | "match":
            return str(operand)
        case "falsy":
            return f"not {operand}"
        case "in" | "not in" if isinstance(value, str) and gate.attr("value_side") == "left":
            return f"{value!r} {op} {operand}"
    shown = repr(value) if isinstance(value, str) and gate.attr("value_kind") != "name" \
        else value
    return f"{operand} {op} {shown}"


def _only_tool_arguments(ctx: CheckContext, gate: Site) -> bool:
    """A test of the arguments the model filled in when it invoked a tool (`if (!dryRun)`)
    is the tool's own logic: exposing the tool is the authority problem, and UNGOVERNED-PATH
    reports it."""
    origins = gate.attr("origins") or ()
    return bool(origins) and all(
        origin in ctx.graph and ctx.graph.nodes[origin].get("site") is not None
        and ctx.graph.nodes[origin]["site"].kind is SiteKind.TOOL_REGISTRATION
        for origin in origins)


def _asks_predicate(gate: Site, gates: list[Site]) -> bool:
    """`if should_refund(x):` only asks a predicate whose own test is on the same path (the
    threshold inside `should_refund`): one decision, reported where it is made."""
    operand = str(gate.attr("operand") or "")
    if gate.attr("op") not in ("truthy", "falsy") or "(" not in operand:
        return False
    called = operand.split("(", 1)[0].rsplit(".", 1)[-1].strip()
    return any(other is not gate and other.symbol.rsplit(".", 1)[-1] == called
               for other in gates)


def _asks_verdict(gate: Site, gates: list[Site]) -> bool:
    """`if approved:` only asks a verdict derived on the same path (`approved =
    bool(re.search(P, answer))`, `ok = score > 0.8`): one decision, reported where it is
    derived, with this test as a related location."""
    operand = str(gate.attr("operand") or "")
    return gate.attr("op") in ("truthy", "falsy") and operand.isidentifier() and any(
        other is not gate and other.attr("derives") == operand for other in gates)


@check(codes.HIDDEN_AUTHORITY)
def hidden_authority(ctx: CheckContext) -> Iterator[Finding]:
    """One finding per test, each model test on a path its own (thresholds are not hidden by
    the routing test above them): the most severe effect it selects is named, with its path;
    the others it also selects are related locations."""
    selected: dict[str, list[tuple[Site, Chain]]] = {}
    asking: dict[str, list[Location]] = {}     # derived verdict -> the tests that ask it
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            gates = [ctx.graph.nodes[g]["site"] for g in chain.gates]
            gates = [g for g in gates if not is_protocol_test(g)
                     and not _only_tool_arguments(ctx, g) and not _asks_predicate(g, gates)]
            if chain.governed or not gates:
                continue
            for gate in [g for g in gates if _asks_verdict(g, gates)]:
                gates.remove(gate)
                for derived in gates:
                    if derived.attr("derives") == gate.attr("operand"):
                        asked = asking.setdefault(derived.id, [])
                        if gate.location not in asked:
                            asked.append(gate.location)
            # Every distinct model test on the path is a gate of its own: a routing test
            # (`action == "refund"`) must not hide the threshold that authorizes beneath it.
            for gate in gates:
                effects = selected.setdefault(gate.id, [])
                if all(other.id != executor.id for other, _ in effects):
                    effects.append((executor, chain))
    for gate_id, effects in sorted(selected.items()):
        gate = ctx.graph.nodes[gate_id]["site"]
        effects.sort(key=lambda pair: (-executor_severity(codes.HIDDEN_AUTHORITY,
                                                          pair[0]).rank, pair[0].id))
        executor, chain = effects[0]
        test = gate_text(gate)
        more = f" and {len(effects) - 1} more effect(s)" if len(effects) > 1 else ""
        yield ctx.finding(
            codes.HIDDEN_AUTHORITY, location=gate.location, symbol=gate.symbol,
            message=f"{gate.kind.value.replace('_', ' ')} `{test}` on model output "
                    f"selects `{executor.attr('callee') or executor.symbol}` "
                    f"({executor.attr('tier')}){more}",
            snippet=test, path=chain.path,
            related=(*(effect.location for effect, _ in effects), *asking.get(gate_id, ())),
            severity=executor_severity(codes.HIDDEN_AUTHORITY, executor),
            inferred=True)
    yield from _model_routing(ctx)


def _model_routing(ctx: CheckContext) -> Iterator[Finding]:
    """Orchestration the configured model plans (`model_routing`: MemoRizz `with_delegation`
    without a deterministic plan, seed 002 M9): the model's plan chooses which delegate acts,
    with its tools. High: the route is hidden authority, the effects are the delegates'."""
    for site in sites_of_kind(ctx.graph, SiteKind.PROMPT_POLICY):
        if site.attr("model_routing") is not True:
            continue
        mode = site.attr("mode")
        how = f"mode `{mode}`" if mode is not None else "no deterministic plan"
        yield ctx.finding(
            codes.HIDDEN_AUTHORITY, location=site.location, symbol=site.symbol,
            message=f"`{site.attr('callee')}` ({how}) lets the configured model plan which "
                    "delegate acts: its output routes the work, and no code decides it",
            severity=Severity.HIGH)
