"""Reachability of one trigger: a minimal context that matches (a witness), minimal contexts
that match while one input is absent (absence witnesses), or the proof that nothing matches.

The witness search draws contexts branch by branch (`plans`) and lets Hypothesis shrink the
first match: absent atoms where possible, the earliest probe value otherwise (the literal
itself), fewer events. Then `contradiction` tries to prove the opposite. The two must never
both succeed; when neither does, reachability is unknown (None), never guessed.

An absence witness is evidence for `ABSENCE-PERMITS`: the trigger is true although an input it
reads is missing (`NOT state.user.banned` on an empty context).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from topo.audit.dsl import EvalContext
from topo.audit.triggers.atoms import ABSENT, Atom, atoms_of, events_of, value_of
from topo.audit.triggers.boundaries import Probes
from topo.audit.triggers.contradiction import contradiction
from topo.audit.triggers.evaluation import TriggerUnderTest
from topo.audit.triggers.plans import branch_plans, free_plan
from topo.audit.triggers.search import Budget, find_minimal
from topo.audit.triggers.strategies import planned_contexts

__all__ = ["Reachability", "AbsenceWitness", "reachability", "InconsistentResult",
           "is_absent"]


class InconsistentResult(AssertionError):
    """A witness and a proof of unsatisfiability for the same trigger: a bug in topo."""


@dataclass(frozen=True, slots=True)
class AbsenceWitness:
    atom: Atom
    context: EvalContext


@dataclass(frozen=True, slots=True)
class Reachability:
    """`reachable` is True with a witness, False with a proof, None when neither was found.
    `tried` counts the contexts the witness search evaluated."""

    reachable: bool | None
    witness: EvalContext | None
    absence_witnesses: tuple[AbsenceWitness, ...]
    proof: str | None
    tried: int


def reachability(trigger: TriggerUnderTest, probes: Probes, budget: Budget, *, purpose: str,
                 now: datetime) -> Reachability:
    """Search a witness of `trigger` among contexts evaluated at `now`, then absence
    witnesses, then try to prove it unsatisfiable. `purpose` names the searches (seeding)."""
    plans = (*branch_plans(trigger.ast, probes), free_plan(probes))
    found = find_minimal(planned_contexts(plans, now=now), trigger.matches, budget,
                         f"witness:{purpose}")
    witness = found.value if isinstance(found.value, EvalContext) else None
    proof = contradiction(trigger.ast)
    if witness is not None and proof is not None:
        raise InconsistentResult(f"{purpose}: a witness matches a trigger proven "
                                 f"unsatisfiable ({proof})")
    if witness is None:
        return Reachability(False if proof else None, None, (), proof, found.tried)
    absences = tuple(_absence_witnesses(trigger, probes, witness, budget, purpose, now))
    return Reachability(True, witness, absences, None, found.tried)


def is_absent(ctx: EvalContext, atom: Atom) -> bool:
    """Does `ctx` lack `atom` (no value, or no event of that name)?"""
    if atom.kind == "event":
        return not events_of(ctx, atom)
    return value_of(ctx, atom) is ABSENT


def _absence_witnesses(trigger: TriggerUnderTest, probes: Probes, witness: EvalContext,
                       budget: Budget, purpose: str, now: datetime
                       ) -> Iterator[AbsenceWitness]:
    for atom in atoms_of(trigger.ast):
        if is_absent(witness, atom):
            yield AbsenceWitness(atom, witness)
            continue
        plans = branch_plans(trigger.ast, probes, absent=atom)
        if not plans:
            continue  # every branch needs the atom (a positive predicate reads it)
        found = find_minimal(planned_contexts(plans, now=now),
                             lambda ctx, atom=atom: is_absent(ctx, atom) and trigger.matches(ctx),
                             budget, f"absent:{atom.name}:{purpose}")
        if isinstance(found.value, EvalContext):
            yield AbsenceWitness(atom, found.value)
