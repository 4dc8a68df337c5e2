"""HIDDEN-AUTHORITY: a threshold or branch on a model-derived value selects a consequential
action (seed 000, "Inventory hidden authority": a score above 0.8 issues a refund)."""

from __future__ import annotations

from collections.abc import Iterator

from audit import codes
from audit.checks._reach import chains
from audit.checks._registry import CheckContext, check, severity_for
from audit.graph import sites_of_kind
from audit.model import Finding, Site, SiteKind

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


@check(codes.HIDDEN_AUTHORITY)
def hidden_authority(ctx: CheckContext) -> Iterator[Finding]:
    reported: set[tuple[str, str]] = set()
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in chains(ctx, executor):
            gates = [ctx.graph.nodes[g]["site"] for g in chain.gates]
            gates = [g for g in gates if not g.attr("protocol")]
            if chain.governed or not gates:
                continue
            gate = gates[0]
            if (gate.id, executor.id) in reported:
                continue
            reported.add((gate.id, executor.id))
            test = gate_text(gate)
            yield ctx.finding(
                codes.HIDDEN_AUTHORITY, location=gate.location, symbol=gate.symbol,
                message=f"{gate.kind.value.replace('_', ' ')} `{test}` on model output "
                        f"selects `{executor.attr('callee') or executor.symbol}` "
                        f"({executor.attr('tier')})",
                snippet=test, path=chain.path, related=(executor.location,),
                severity=severity_for(codes.HIDDEN_AUTHORITY, executor.attr("tier")),
                inferred=True)
