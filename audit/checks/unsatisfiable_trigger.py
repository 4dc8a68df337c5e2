"""UNSATISFIABLE-TRIGGER: no context can make the trigger true, so the EMU is dead.

Seed 000 asks of every policy "Can this policy match?". The proof is `topo fuzz`'s
(`audit.triggers.contradiction`): sound for a decidable fragment (contradictory numeric bounds, one
key equal to two literals, `EXISTS` with `NOT … EXISTS`, impossible event counts). Outside
that fragment it proves nothing, and this check says nothing: "unknown" is not a finding.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._emus import emu_place, parsed_emus
from topo.audit.checks._registry import CheckContext, check
from topo.audit.triggers.contradiction import contradiction
from topo.audit.model import Finding

__all__ = ["unsatisfiable_trigger"]


@check(codes.UNSATISFIABLE_TRIGGER)
def unsatisfiable_trigger(ctx: CheckContext) -> Iterator[Finding]:
    for parsed in parsed_emus(ctx.emus):
        reason = contradiction(parsed.ast)
        if reason is not None:
            yield ctx.finding(
                codes.UNSATISFIABLE_TRIGGER, **emu_place(parsed.emu), snippet="trigger",
                message=f"the trigger of EMU `{parsed.emu.label}` can never be true: {reason}")
