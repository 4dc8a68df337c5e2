"""BINDING-MISMATCH: code invokes a decision point that no EMU binds, next to one that is.

Seed 000, "Integration invariants": "Keep the EMU's `decision_point` and the caller's name
identical … Named invocations select only EMUs bound to that exact point." A call naming
`support.Refund` or `support_refund` while the EMUs bind `support.refund` selects nothing, and
nothing fails: the decision simply never matches. Near-misses are case or separator variants
(`.`, `_`, `-`), or names within two edits.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._integration import decision_calls, literal_point
from topo.audit.checks._registry import CheckContext, check
from topo.audit.model import Finding

__all__ = ["binding_mismatch", "near_miss", "edit_distance"]

MAX_EDITS = 2
_SEPARATORS = str.maketrans({"_": ".", "-": "."})


@check(codes.BINDING_MISMATCH)
def binding_mismatch(ctx: CheckContext) -> Iterator[Finding]:
    bound = sorted({emu.decision_point for emu in ctx.emus if emu.decision_point})
    if not bound:
        return      # no EMUs (or none bound): there is nothing to mismatch against
    for site in decision_calls(ctx):
        point = literal_point(site)
        if point is None or point in bound:
            continue
        nearest = near_miss(point, bound)
        if nearest is None:
            continue
        emus = sorted(emu.label for emu in ctx.emus if emu.decision_point == nearest)
        yield ctx.finding(
            codes.BINDING_MISMATCH, location=site.location, symbol=site.symbol,
            message=f"`{site.symbol}` invokes decision point `{point}`, which no EMU binds, "
                    f"while `{nearest}` is bound by {', '.join(f'`{e}`' for e in emus)}",
            snippet=f"{point} ~ {nearest}", related=tuple(
                emu.location for emu in ctx.emus if emu.decision_point == nearest))


def near_miss(name: str, bound: list[str]) -> str | None:
    """The bound name closest to `name` if it is a near-miss: same after folding case and
    separators, else at most MAX_EDITS edits away (ties: the first in sorted order)."""
    folded = _fold(name)
    same = [b for b in bound if _fold(b) == folded]
    if same:
        return same[0]
    scored = sorted((edit_distance(name, b), b) for b in bound)
    best = scored[0] if scored else None
    return best[1] if best is not None and best[0] <= MAX_EDITS else None


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions, each costing one.

    >>> edit_distance("billing.refund", "billing.refunds")
    1
    """
    previous = list(range(len(b) + 1))
    for i, left in enumerate(a, 1):
        current = [i]
        for j, right in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (left != right)))
        previous = current
    return previous[-1]


def _fold(name: str) -> str:
    return name.lower().translate(_SEPARATORS)
