"""Checks over the authority graph: one module per concern, each registered here explicitly.

A meta-test fails when a `checks/*.py` module is missing from `ALL_CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from topo.analyzers.flow.facts import SourceFacts
from topo.audit.checks._registry import (Check, CheckConfig, CheckContext, FactIndex, check,
                                         executor_severity, severity_for)
from topo.audit.checks._atom_values import AtomValue, atom_values
from topo.audit.checks.absence_permits import absence_permits
from topo.audit.checks.action_gap import action_gap
from topo.audit.checks.advisory_only_policy import advisory_only_policy
from topo.audit.checks.agent_verdict import agent_verdict
from topo.audit.checks.atom_gap import atom_gap
from topo.audit.checks.binding_mismatch import binding_mismatch
from topo.audit.checks.coherence_gap import coherence_gap
from topo.audit.checks.destructive_memory_tool import destructive_memory_tool
from topo.audit.checks.dynamic_decision_point import dynamic_decision_point
from topo.audit.checks.eval_leak import eval_leak
from topo.audit.checks.event_name_drift import event_name_drift
from topo.audit.checks.event_scope import event_scope
from topo.audit.checks.ghost_event import ghost_event
from topo.audit.checks.ghost_negative import ghost_negative
from topo.audit.checks.hidden_authority import hidden_authority
from topo.audit.checks.invoke_gap import invoke_gap
from topo.audit.checks.model_consent import model_consent
from topo.audit.checks.recording_gap import recording_gap
from topo.audit.checks.self_modifying_authority import self_modifying_authority
from topo.audit.checks.ungoverned_path import ungoverned_path
from topo.audit.checks.unsafe_fallback import unsafe_fallback
from topo.audit.checks.unsatisfiable_trigger import unsatisfiable_trigger
from topo.audit.checks.untrusted_identity import untrusted_identity
from topo.audit.checks.unverified_outcome import unverified_outcome
from topo.audit.checks.unvalidated_tag import unvalidated_tag
from topo.audit.graph.chains import CallIndex, ChainLimits, Reach, call_index, reaching_chains
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["ALL_CHECKS", "Check", "CheckConfig", "CheckContext", "check", "run_checks",
           "chain_query", "executor_severity", "severity_for", "AtomValue", "declared_atom_values"]

ALL_CHECKS: tuple[Check, ...] = (
    ungoverned_path,
    hidden_authority,
    ghost_event,
    event_name_drift,
    event_scope,
    absence_permits,
    unsatisfiable_trigger,
    invoke_gap,
    atom_gap,
    action_gap,
    coherence_gap,
    binding_mismatch,
    unsafe_fallback,
    eval_leak,
    model_consent,
    dynamic_decision_point,
    recording_gap,
    unvalidated_tag,
    advisory_only_policy,
    ghost_negative,
    agent_verdict,
    unverified_outcome,
    self_modifying_authority,
    untrusted_identity,
    destructive_memory_tool,
)


def chain_query(graph: nx.MultiDiGraph, facts: SourceFacts, config: CheckConfig = CheckConfig(),
                calls: CallIndex | None = None) -> Reach:
    """The run's chain query with the checks' limits (the pipeline shares it with the
    summary)."""
    return reaching_chains(graph, facts, calls=calls,
                           limits=ChainLimits(config.max_path, config.max_chains))


def declared_atom_values(graph: nx.MultiDiGraph, facts: SourceFacts, emus: Iterable[Emu],
                         config: CheckConfig, reach: Reach) -> dict[str, AtomValue]:
    """The type and value domain the code declares for each atom's value, by atom site id
    (the atom contracts of the report; `_atom_values`), read with the checks' helpers."""
    ctx = CheckContext(graph=graph, facts=facts, emus=tuple(emus), config=config,
                       calls=call_index(facts), reach=reach, index=FactIndex.of(facts))
    return atom_values(ctx)


def run_checks(graph: nx.MultiDiGraph, facts: SourceFacts, emus: Iterable[Emu],
               config: CheckConfig = CheckConfig(),
               checks: tuple[Check, ...] = ALL_CHECKS, reach: Reach | None = None
               ) -> tuple[Finding, ...]:
    """Every check's findings, sorted by priority (severity, then place). The chain query is
    answered once (here, unless the caller did: `chain_query`) and shared by every check."""
    calls = call_index(facts)
    reach = reach if reach is not None else chain_query(graph, facts, config, calls)
    emus = tuple(emus)
    index = FactIndex.of(facts)
    findings: list[Finding] = []
    for one in checks:
        ctx = CheckContext(graph=graph, facts=facts, emus=emus, config=config, calls=calls,
                           reach=reach, index=index,
                           allowed=frozenset(code.id for code in one.codes))
        findings.extend(one.run(ctx))
    return tuple(sorted(findings, key=lambda f: f.sort_key))
