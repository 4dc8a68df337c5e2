"""Authority and ways in that are not a model, as the chain query sees them (seed 000's audit
scope: "webhooks, queues, and scheduled jobs"; "feature flags, experiments, configuration
policy, and database-driven rules").

- `PolicyGate`: a config gate (configuration, flag, role or tier, database rule) on some chain
  to a consequential effect: which effects it selects, from which entries, and whether model
  output also shapes those chains. It approves nothing a model proposes: a chain it stands on
  is governed only if a decision or an approval stands there too (chains.py).
- `EntryPoint`: a scheduled job, queue consumer, webhook, route or command, and the
  consequential effects its chains reach.
Computed once by the pipeline from the chain query; the reports only show them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.flow.entrypoints import entry_of
from topo.analyzers.flow.roles import function_node
from topo.analyzers.model import Site, SiteKind, Tier
from topo.audit.graph.chains import Reach
from topo.audit.model import Finding

__all__ = ["PolicyGate", "EntryPoint", "CodeAuthority", "code_authority"]


@dataclass(frozen=True, slots=True)
class PolicyGate:
    site: str                        # config gate site id
    kind: str                        # config, flag, role or rule (AUTHORITY_KINDS)
    selects: tuple[str, ...]         # consequential executor site ids its chains reach
    entries: tuple[str, ...]         # function nodes where those chains start
    model_shaped: bool               # model output also shapes one of those chains
    findings: tuple[str, ...]        # fingerprints of findings on those executors


@dataclass(frozen=True, slots=True)
class EntryPoint:
    site: str                        # entry_point site id
    kind: str                        # ENTRY_KINDS value
    function: str                    # the function node it runs
    reaches: tuple[str, ...]         # consequential executor site ids its chains reach


@dataclass(frozen=True, slots=True)
class CodeAuthority:
    gates: tuple[PolicyGate, ...] = ()
    entries: tuple[EntryPoint, ...] = ()


def code_authority(sites: tuple[Site, ...], reach: Reach,
                   findings: Iterable[Finding] = ()) -> CodeAuthority:
    by_id = {site.id: site for site in sites}
    selects: dict[str, dict[str, None]] = defaultdict(dict)
    entries: dict[str, dict[str, None]] = defaultdict(dict)
    shaped: set[str] = set()
    reached: dict[str, dict[str, None]] = defaultdict(dict)
    for executor_id, chains in sorted(reach.by_executor.items()):
        executor = by_id.get(executor_id)
        if executor is None or str(executor.attr("tier") or Tier.NONE.value) == Tier.NONE.value:
            continue
        for chain in chains:
            reached[chain.entry][executor_id] = None
            for gate in chain.policies:
                selects[gate][executor_id] = None
                entries[gate][chain.entry] = None
                if chain.influenced:
                    shaped.add(gate)
    on_executor = defaultdict(list)
    for finding in findings:
        if finding.path:
            on_executor[finding.path[-1]].append(finding.fingerprint)
    gates = tuple(
        PolicyGate(gate, str(by_id[gate].attr("authority_kind") or "flag"),
                   tuple(selects[gate]), tuple(entries[gate]), gate in shaped,
                   tuple(dict.fromkeys(fp for e in selects[gate] for fp in on_executor[e])))
        for gate in sorted(selects) if gate in by_id
        and by_id[gate].kind is SiteKind.CONFIG_GATE)
    points = tuple(
        EntryPoint(site.id, str(site.attr("entry_kind")), function_node(key),
                   tuple(reached.get(function_node(key), {})))
        for key, site in sorted(entry_of(sites).items(), key=lambda item: item[1].id))
    return CodeAuthority(gates, points)
