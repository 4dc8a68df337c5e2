"""`topo fuzz` as a library call: EMUs in, a typed report out.

Per EMU: reachability (witness, absence witnesses, or a proof of unsatisfiability) and a
boundary table around the witness. Per decision point: arbitration among the evaluated EMUs.
With a previous version: a before/after comparison per EMU key. Every search is seeded from
`FuzzConfig.budget.seed` and the EMU key, and every context is evaluated at `FuzzConfig.now`,
so the same input and configuration give the same report.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from topo.audit.dsl import EvalContext, format_trigger
from topo.audit.dsl.ast import Expr
from topo.audit.fuzz.arbitration import Contender, Lane, contender, lane_of
from topo.audit.triggers.boundaries import Probes, merge_probes, probes
from topo.audit.fuzz.diff import EmuDiff, added_emu, diff_bases, diff_triggers, removed_emu
from topo.audit.triggers.evaluation import FUZZ_MATCH_TIMEOUT, TriggerUnderTest
from topo.audit.triggers.search import Budget
from topo.audit.fuzz.standings import DecisionPointReport, decision_point_reports
from topo.audit.triggers.strategies import CONTEXT_NOW
from topo.audit.fuzz.tables import BoundaryRow, boundary_table, empty_context
from topo.audit.triggers.witness import Reachability, reachability
from topo.audit.policy import Emu, EmuSet, LoadError

__all__ = ["FuzzConfig", "PolicyUnderTest", "EmuResult", "FuzzReport", "parse_policies",
           "fuzz_policies", "DEFAULT_NOW"]

DEFAULT_NOW = CONTEXT_NOW
"""The evaluation instant when none is given: fixed, so that witnesses' event timestamps are
reproducible."""


@dataclass(frozen=True, slots=True)
class FuzzConfig:
    budget: Budget = field(default_factory=Budget)
    now: datetime = DEFAULT_NOW
    top_k: int | None = None
    match_timeout: float = FUZZ_MATCH_TIMEOUT
    max_emus: int | None = None              # fuzz at most this many EMUs, in file order
    time_budget: float | None = None         # seconds; EMUs not started by then are not fuzzed


@dataclass(frozen=True, slots=True)
class PolicyUnderTest:
    """An EMU whose trigger parsed."""

    emu: Emu
    ast: Expr


@dataclass(frozen=True, slots=True)
class EmuResult:
    emu: Emu
    trigger: str
    lane: Lane
    reachability: Reachability
    boundaries: tuple[BoundaryRow, ...]
    evaluation_errors: tuple[tuple[str, int], ...]

    @property
    def is_dead(self) -> bool:
        """Evaluated in its lifecycle state, yet no context was found that matches."""
        return self.lane != "off" and self.reachability.witness is None


@dataclass(frozen=True, slots=True)
class FuzzReport:
    config: FuzzConfig
    source: str
    before_source: str | None
    emus: tuple[EmuResult, ...]
    decision_points: tuple[DecisionPointReport, ...]
    diffs: tuple[EmuDiff, ...] | None
    # EMUs left out by `max_emus` or `time_budget`, with the reason: the report is partial.
    not_fuzzed: tuple[tuple[str, str], ...] = ()

    @property
    def dead(self) -> tuple[EmuResult, ...]:
        return tuple(result for result in self.emus if result.is_dead)


def parse_policies(emus: EmuSet) -> tuple[tuple[PolicyUnderTest, ...], tuple[LoadError, ...]]:
    """The EMUs whose trigger parses, and an error (with file:line) for each that does not."""
    parsed: list[PolicyUnderTest] = []
    errors: list[LoadError] = []
    for emu in emus.emus:
        if emu.trigger is None:
            errors.append(LoadError(emu.location, f"{emu.label}: no trigger string to fuzz"))
            continue
        result = emu.parsed
        if result is None or result.ast is None:
            first = result.diagnostics[0].message if result.diagnostics else "invalid trigger"
            errors.append(LoadError(emu.location, f"{emu.label}: trigger does not parse: "
                                                  f"{first} (see `topo emus validate`)"))
            continue
        parsed.append(PolicyUnderTest(emu, result.ast))
    return tuple(parsed), tuple(errors)


def fuzz_policies(policies: Sequence[PolicyUnderTest], *, config: FuzzConfig = FuzzConfig(),
                  before: Sequence[PolicyUnderTest] | None = None, source: str = "",
                  before_source: str | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  clock: Callable[[], float] = time.monotonic) -> FuzzReport:
    """Fuzz every EMU of `policies` (within `config`'s EMU and time budgets); compare with
    `before` when given. `progress(done, total)` is told after each EMU's search."""
    deadline = None if config.time_budget is None else clock() + config.time_budget
    expired = (lambda: False) if deadline is None else (lambda: clock() >= deadline)
    triggers, found, tables, not_fuzzed = _search_all(policies, config, progress, expired)
    policies = [p for p in policies if p.emu.label in found]
    own = {p.emu.label: probes(p.ast) for p in policies}
    contenders = [_contender(p, triggers[p.emu.label], i) for i, p in enumerate(policies)]
    points = decision_point_reports(
        contenders, {k: r.witness for k, r in found.items()}, own, config.budget,
        now=config.now, top_k=config.top_k, expired=expired)
    skipped = {key for key, _ in not_fuzzed}
    if expired():  # standings whose win/lose search the budget cut off
        not_fuzzed += tuple((s.emu_key, "arbitration not searched: the time budget ran out")
                            for point in points for s in point.standings
                            if not s.searched and s.lane == "live" and len(point.contenders) > 1
                            and found[s.emu_key].witness is not None)
    diffs = None if before is None else _diffs(
        [p for p in before if p.emu.label not in skipped], policies, triggers, own, found, config)
    results = tuple(EmuResult(p.emu, format_trigger(p.ast), lane_of(p.emu.state),
                              found[p.emu.label], tables[p.emu.label],
                              tuple(sorted(triggers[p.emu.label].errors.items())))
                    for p in policies)
    return FuzzReport(config, source, before_source, results, points, diffs, not_fuzzed)


def _search_all(policies: Sequence[PolicyUnderTest], config: FuzzConfig,
                progress: Callable[[int, int], None] | None, expired: Callable[[], bool]
                ) -> tuple[dict[str, TriggerUnderTest], dict[str, Reachability],
                           dict[str, tuple[BoundaryRow, ...]], tuple[tuple[str, str], ...]]:
    """Reachability and the boundary table per EMU, in order, until the EMU count or the time
    budget runs out. (Arbitration and diffs run afterwards, on the EMUs fuzzed.)"""
    triggers: dict[str, TriggerUnderTest] = {}
    found: dict[str, Reachability] = {}
    tables: dict[str, tuple[BoundaryRow, ...]] = {}
    not_fuzzed: list[tuple[str, str]] = []
    for index, policy in enumerate(policies):
        if config.max_emus is not None and index >= config.max_emus:
            not_fuzzed.append((policy.emu.label, f"beyond --max-emus {config.max_emus}"))
        elif expired():
            not_fuzzed.append((policy.emu.label,
                               f"the time budget of {config.time_budget:g} s ran out"))
        else:
            trigger = triggers[policy.emu.label] = TriggerUnderTest(policy.ast,
                                                                    config.match_timeout)
            own = probes(policy.ast)
            found[policy.emu.label] = _reachability(trigger, own, policy, config)
            tables[policy.emu.label] = boundary_table(trigger, _base(found[policy.emu.label],
                                                                     config), own)
        if progress is not None:
            progress(index + 1, len(policies))
    return triggers, found, tables, tuple(not_fuzzed)


def _reachability(trigger: TriggerUnderTest, own: Probes, policy: PolicyUnderTest,
                  config: FuzzConfig) -> Reachability:
    return reachability(trigger, own, config.budget, purpose=policy.emu.label, now=config.now)


def _base(found: Reachability, config: FuzzConfig) -> EvalContext:
    return found.witness if found.witness is not None else empty_context(config.now)


def _contender(policy: PolicyUnderTest, trigger: TriggerUnderTest, order: int) -> Contender:
    emu = policy.emu
    return contender(emu.label, emu.decision_point, emu.state, emu.raw, trigger, order)


def _diffs(before: Sequence[PolicyUnderTest], after: Sequence[PolicyUnderTest],
           triggers: dict[str, TriggerUnderTest], own: dict[str, Probes],
           found: dict[str, Reachability], config: FuzzConfig) -> tuple[EmuDiff, ...]:
    old = {p.emu.label: p for p in before}
    diffs: list[EmuDiff] = []
    for policy in after:
        key = policy.emu.label
        previous = old.get(key)
        if previous is None:
            diffs.append(added_emu(key, found[key].witness))
        elif format_trigger(previous.ast) == format_trigger(policy.ast):
            diffs.append(EmuDiff(key, "unchanged"))
        else:
            diffs.append(_compare(key, previous, triggers[key], own[key], found[key], config))
    current = {p.emu.label for p in after}
    for policy in before:
        if policy.emu.label not in current:
            diffs.append(_removed(policy, config))
    return tuple(diffs)


def _compare(key: str, previous: PolicyUnderTest, trigger: TriggerUnderTest, own: Probes,
             found: Reachability, config: FuzzConfig) -> EmuDiff:
    old_trigger = TriggerUnderTest(previous.ast, config.match_timeout)
    old_probes = probes(previous.ast)
    old_found = reachability(old_trigger, old_probes, config.budget, purpose=f"before:{key}",
                             now=config.now)
    merged = merge_probes(own, old_probes)
    witnesses = [ctx for ctx in (found.witness, old_found.witness) if ctx is not None]
    bases = diff_bases(key, old_trigger, trigger, merged, witnesses, config.budget,
                       now=config.now)
    return diff_triggers(key, old_trigger, trigger, merged, bases, config.budget)


def _removed(policy: PolicyUnderTest, config: FuzzConfig) -> EmuDiff:
    trigger = TriggerUnderTest(policy.ast, config.match_timeout)
    found = reachability(trigger, probes(policy.ast), config.budget,
                         purpose=f"before:{policy.emu.label}", now=config.now)
    return removed_emu(policy.emu.label, found.witness)
