"""Branches taken when a control call selected nothing.

`if not decision.selected:`, the `else` of `if decision.selected:`, `if decision is None:`,
`len(decision.selected) == 0`, code after `if decision.selected: return`: a call under such a
branch runs *because* the decision or approval came back empty. UNSAFE-FALLBACK reports the
model's proposal run there; RECORDING-GAP does not count such a branch as governance.
"""

from __future__ import annotations

from topo.analyzers.ir import Comparison, GuardKind, Value, ValueKind
from topo.analyzers.paths import segments
from topo.audit.graph.chains import Chain, Hop
from topo.audit.checks._registry import CheckContext
from topo.analyzers.model import Site, SiteKind

__all__ = ["CONTROLS", "empty_selection_hop", "selection_test"]

CONTROLS = (SiteKind.DECISION_CALL, SiteKind.APPROVAL_GATE)
_BRANCHES = frozenset({GuardKind.IF, GuardKind.EARLY_EXIT, GuardKind.TERNARY,
                       GuardKind.BOOL_OP, GuardKind.WHILE})
# Fields of a decision result that hold the selection (`decision.selected`); a test of the
# result itself (`decision is None`, `not approval`) counts too.
_SELECTION_FIELDS = frozenset({"selected", "selections", "actions", "items", "results",
                               "execution_results"})


def empty_selection_hop(ctx: CheckContext, chain: Chain,
                        controls: dict[str, Site]) -> tuple[Hop, Site] | None:
    """The first hop of the chain guarded by a branch taken when one of `controls` (by site
    id) selected nothing, with that control."""
    for hop in chain.hops:
        for guard in hop.call.guards:
            if guard.kind not in _BRANCHES or guard.condition is None:
                continue
            for comparison in guard.condition.comparisons:
                tested = _tested_controls(ctx, hop, comparison, controls)
                holds_when_selected = selection_test(ctx, comparison) if tested else None
                if holds_when_selected is not None and holds_when_selected != guard.polarity:
                    return hop, controls[sorted(tested)[0]]
    return None


def _tested_controls(ctx: CheckContext, hop: Hop, comparison: Comparison,
                     controls: dict[str, Site]) -> set[str]:
    authority = ctx.facts.authority
    left = authority.value_labels(hop.file, hop.call.scope, comparison.left)
    right = authority.value_labels(hop.file, hop.call.scope, comparison.right)
    return set(left & controls.keys()) if not right & controls.keys() else set()


def selection_test(ctx: CheckContext, comparison: Comparison) -> bool | None:
    """True when the comparison holds for a non-empty selection (`decision.selected`,
    `decision is not None`), False when it holds for an empty one (`not decision.selected`,
    `len(decision.selected) == 0`), None when it tests something else."""
    tested, other, op = comparison.left, comparison.right, comparison.op
    length = _length_argument(ctx, tested)
    if not _is_selection(length or tested):
        return None
    if length is not None:
        bound = other.literal if other is not None and other.kind is ValueKind.NUMBER else None
        return {("==", 0): False, ("<=", 0): False, ("<", 1): False, ("!=", 0): True,
                (">", 0): True, (">=", 1): True}.get((op, bound))
    none = other is not None and other.kind is ValueKind.NONE
    empty = other is not None and other.kind is ValueKind.LIST and not other.entries
    match op:
        case "truthy":
            return True
        case "falsy":
            return False
        case "is" | "==" if none or empty:
            return False
        case "is not" | "!=" if none or empty:
            return True
    return None


def _length_argument(ctx: CheckContext, value: Value) -> Value | None:
    found = ctx.calls.get(value.call or "") if value.kind is ValueKind.CALL else None
    if found is None or found[1].callee != "builtins.len" or not found[1].args:
        return None
    return found[1].args[0]


def _is_selection(value: Value) -> bool:
    parts = segments(value.ref or "") if value.kind is ValueKind.NAME else []
    return len(parts) == 1 or (len(parts) > 1 and parts[-1] in _SELECTION_FIELDS)
