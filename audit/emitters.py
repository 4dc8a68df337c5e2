"""The one registry of finding emitters: every policy lint, every check and the suppression
pass, with the codes each may emit, in the order the pipeline runs them.

The border between the first two is the input. A lint judges one EMU alone (its schema, its
trigger's syntax, its own fields) and runs when EMUs are loaded, also in `topo emus validate`;
a check asks a question of the authority graph (code, EMUs and how they relate) and runs in
`topo audit`. The suppression pass runs last, over every finding. A meta-test holds that each
code of `codes.ALL` has exactly one emitter here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import ModuleType

from topo.audit import suppressions
from topo.audit.checks import ALL_CHECKS, Check
from topo.audit.model import Code
from topo.audit.policy import lints
from topo.audit.policy.lints import LINTS, Lint

__all__ = ["Stage", "Emitter", "EMITTERS", "CHECKS", "LINTS", "emitters_of"]


class Stage(Enum):
    LINT = "lint"                 # one EMU at a time (audit/policy/lints)
    CHECK = "check"               # the authority graph (audit/checks)
    SUPPRESSION = "suppression"   # every finding, after the others (audit/suppressions)


@dataclass(frozen=True, slots=True)
class Emitter:
    """One thing that makes findings: its name, stage, module and the codes it may emit."""

    name: str
    stage: Stage
    module: str
    codes: tuple[Code, ...]


CHECKS: tuple[Check, ...] = ALL_CHECKS


def _lint_module(module: ModuleType) -> Emitter:
    """A lint module is one emitter (named after its code); EMU-SCHEMA's also owns the schema
    violations the lint runner reports before any lint runs."""
    rows: tuple[Lint, ...] = module.LINTS
    return Emitter(module.__name__.rsplit(".", 1)[1], Stage.LINT, module.__name__,
                   tuple(dict.fromkeys(row.code for row in rows)))


def _check(one: Check) -> Emitter:
    return Emitter(one.name, Stage.CHECK, one.run.__module__, one.codes)


EMITTERS: tuple[Emitter, ...] = (
    *(_lint_module(module) for module in lints.MODULES),
    *(_check(one) for one in CHECKS),
    Emitter("suppressions", Stage.SUPPRESSION, suppressions.__name__, suppressions.CODES),
)


def emitters_of(code: Code) -> tuple[Emitter, ...]:
    """The emitters that may emit `code` (one, for every code of `codes.ALL`)."""
    return tuple(e for e in EMITTERS if code in e.codes)
