"""The eight answers of seed 000's audit ("What the audit must answer"), per consequential
outcome: who proposes it, what authorizes it today, what influences it, which code executes
it, whether a human reviews it, what happens when context is missing or a dependency fails,
whether one decision point covers every path, and whether its candidate EMUs can match and act.

An outcome is an executor group: the consequential executor sites of one project (deployable)
that perform the same effect (the same tier and called API, and the same literal destination
where the code writes one), with the call chains (wrappers, helpers, tools) that reach them.
The answers themselves are `outcome_answers.py`'s. Computed once by the pipeline from facts
other stages computed (the chain query, the contracts, the reachability matrix, the
findings); nothing here is re-derived from source. Values name sites by id, EMUs by key and
findings by fingerprint; the reports show them. `UNKNOWN` is the answer when the code does not
say; an answer resting on Memrail's documented semantics rather than on code is `inferred`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.flow.entrypoints import entry_of
from topo.analyzers.flow.roles import function_node
from topo.analyzers.ir import MODULE_SCOPE
from topo.analyzers.model import Edge, EdgeKind, Site, SiteKind, Tier
from topo.analyzers.packs import Knowledge
from topo.audit.contracts import UNKNOWN, Contracts, emu_action
from topo.audit.graph.chains import Chain, Reach
from topo.audit.graph.reachability import ReachabilityRow
from topo.audit.model import Finding
from topo.audit.outcome_answers import (FAIL_CLOSED, FAIL_OPEN, Answer, Authority,
                                        CandidateEmu, HumanReview, OutcomePath, OutcomeScope,
                                        authorized_answer, dependency_failure_answer,
                                        emus_answer, human_answer, missing_context_answer,
                                        reviews_of, single_point_answer, site_kind)
from topo.audit.placement import Placement
from topo.audit.policy import Emu
from topo.audit.tool_inventory import Tool

__all__ = ["GROUPING_RULE", "FAIL_OPEN", "FAIL_CLOSED", "Answer", "OutcomePath", "Proposal",
           "Authority", "HumanReview", "Influences", "CandidateEmu", "Outcome", "outcomes_of"]

GROUPING_RULE = ("outcome = the consequential executor sites of one project with the same tier, "
                 "called API and literal destination (url, recipient, path, command, SQL, remote "
                 "tool), with every call chain the chain query finds to them")
_DESTINATIONS = ("url", "to", "path", "command", "sql", "tool_name")
_UNSAFE = "UNSAFE-FALLBACK"


@dataclass(frozen=True, slots=True)
class Proposal:
    """Where the outcome can be proposed: an entry, and what proposes through it (model
    output sites; none when code alone decides, or when policy selects a registered tool)."""

    entry: str                       # function node
    model_outputs: tuple[str, ...]
    selected_by_policy: bool
    decision_points: tuple[str, ...]
    entry_kind: str = UNKNOWN        # OutcomePath.entry_kind
    entry_site: str | None = None


@dataclass(frozen=True, slots=True)
class Influences:
    state: tuple[str, ...]           # state keys supplied to, or read at, its decision points
    tags: tuple[str, ...]
    model_outputs: tuple[str, ...]   # inference / tool / dispatcher site ids shaping a path
    events: tuple[str, ...]          # events its candidate EMUs read


@dataclass(frozen=True, slots=True)
class Outcome:
    project: str                     # the deployable holding its executors (placement)
    effect: str                      # the called API (or the intent executor's definition)
    tier: str
    destination: str | None
    executors: tuple[str, ...]       # executor site ids, in site order
    tools: tuple[str, ...]           # model-callable tools whose effects include them
    paths: tuple[OutcomePath, ...]
    proposals: tuple[Proposal, ...]  # the paths' distinct ways in
    authority: tuple[Authority, ...]
    authorized: Answer               # enforced / partly enforced / bypassed / advisory only /
                                     # none
    influences: Influences
    human_review: Answer
    reviews: tuple[HumanReview, ...]
    on_missing_context: Answer
    on_dependency_failure: Answer
    single_point: Answer             # value yes / no / unknown; evidence: the covering points
    candidate_emus: tuple[CandidateEmu, ...]
    emus_reachable_and_connected: Answer
    findings: tuple[str, ...]        # fingerprints of findings on its executors


def outcomes_of(sites: tuple[Site, ...], edges: tuple[Edge, ...], reach: Reach,
                emus: Iterable[Emu], findings: tuple[Finding, ...],
                rows: Iterable[ReachabilityRow], contracts: Contracts, tools: Iterable[Tool],
                knowledge: Knowledge, placement: Placement) -> tuple[Outcome, ...]:
    """Every consequential outcome of the run, by tier, effect and project."""
    authority_in: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    inference_in: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        if edge.kind is EdgeKind.AUTHORITY:
            enforced = dict(edge.attrs).get("enforced") is True
            authority_in[edge.target].append((edge.source, enforced))
        elif edge.kind is EdgeKind.INFERENCE:
            inference_in[edge.target].extend(source for source, _ in edge.pairs())
    facts = OutcomeScope(
        {s.id: s for s in sites}, authority_in, inference_in, tuple(emus),
        {row.emu_key: row for row in rows}, tuple(s for s in sites if s.kind is SiteKind.FALLBACK),
        tuple(s.id for s in sites if s.kind is SiteKind.ACTION_HANDLER
              and s.attr("action_type") == "decision_prompt"),
        contracts, knowledge, findings, _ways_in(sites))
    projects = {spot.node: spot.project for spot in placement.nodes}
    groups: dict[tuple[str, str, str, str | None], list[Site]] = defaultdict(list)
    for site in sites:
        if site.kind is SiteKind.EXECUTOR and _consequential(site):
            groups[(projects.get(site.id, UNKNOWN), *_group_key(site))].append(site)
    tools = tuple(tools)
    found = [_outcome(facts, key, members, reach, tools) for key, members in groups.items()]
    return tuple(sorted(found, key=lambda o: (_tier_level(o.tier), o.effect, o.project,
                                              o.destination or "", o.executors)))


def _consequential(site: Site) -> bool:
    return str(site.attr("tier") or Tier.NONE.value) != Tier.NONE.value


def _tier_level(tier: str) -> int:
    try:
        return Tier(tier).level
    except ValueError:
        return len(Tier)


def _group_key(site: Site) -> tuple[str, str, str | None]:
    """Tier, effect and literal destination: an intent executor (no API call) is its own
    effect, named by its definition."""
    effect = str(site.attr("callee") or site.attr("definition") or site.symbol)
    destination = next((str(site.attr(name)) for name in _DESTINATIONS
                        if isinstance(site.attr(name), (str, int))
                        and not isinstance(site.attr(name), bool)), None)
    return str(site.attr("tier")), effect, destination


def _outcome(facts: OutcomeScope, key: tuple[str, str, str, str | None], members: list[Site],
             reach: Reach, tools: tuple[Tool, ...]) -> Outcome:
    project, tier, effect, destination = key
    ids = tuple(site.id for site in members)
    places = {s.location for s in members}
    mine = tuple(f for f in facts.findings if (f.path and f.path[-1] in ids)
                 or f.location in places)
    unsafe = [f for f in mine if f.code.id == _UNSAFE]
    bypassed = {s for f in unsafe for s in f.path
                if s in facts.sites and facts.sites[s].kind is SiteKind.DECISION_CALL}
    paths = tuple(_path(facts, chain, bypassed) for site in members for chain in reach.of(site))
    named = tuple(sorted({t.name for t in tools for e in t.effects if e.site in ids}))
    candidates = _candidates(facts, named, paths)
    reviews = reviews_of(facts, ids, paths, candidates)
    authority = _authority(facts, ids, paths)
    return Outcome(
        project=project, effect=effect, tier=tier, destination=destination, executors=ids,
        tools=named, paths=paths, proposals=tuple(dict.fromkeys(
            Proposal(p.entry, p.proposed_by, p.selected_by_policy,
                     p.decision_points if p.selected_by_policy else (), p.entry_kind,
                     p.entry_site) for p in paths)),
        authority=authority, authorized=authorized_answer(paths, authority),
        influences=_influences(facts, paths, candidates), human_review=human_answer(reviews),
        reviews=reviews,
        on_missing_context=missing_context_answer(facts, paths, unsafe, candidates),
        on_dependency_failure=dependency_failure_answer(facts, paths, unsafe),
        single_point=single_point_answer(paths), candidate_emus=candidates,
        emus_reachable_and_connected=emus_answer(candidates),
        findings=tuple(f.fingerprint for f in mine))


def _path(facts: OutcomeScope, chain: Chain, bypassed: set[str]) -> OutcomePath:
    functions = tuple(dict.fromkeys((chain.entry, *(
        function_node(function_key(h.file, h.call.scope)) for h in chain.hops))))
    governed = any(s in facts.sites and facts.sites[s].kind is SiteKind.TOOL_REGISTRATION
                   and facts.knowledge.governed(facts.sites[s]) for s in chain.enforced_by)
    calls = tuple(s for s in chain.enforced_by if site_kind(facts, s) == "decision_call")
    kind, way_in = _entry_kind(facts, chain)
    return OutcomePath(chain.executor.id, chain.entry, functions, chain.origins,
                       tuple(s for s in chain.enforced_by if s not in bypassed), chain.gates,
                       _points_of(facts, chain, bypassed), governed, calls, kind, way_in,
                       chain.policies)


_TOOL_KINDS = {SiteKind.TOOL_REGISTRATION: "tool", SiteKind.ACTION_HANDLER: "action_handler"}


def _entry_kind(facts: OutcomeScope, chain: Chain) -> tuple[str, str | None]:
    """How a chain starts, and the site that says so: a tool or an entry point; else code at
    a module's top level, `script` under `if __name__ == "__main__":`, `module_load` when
    importing the module runs it; else unknown (a function nothing calls or registers)."""
    way_in = facts.ways_in.get(chain.entry)
    if way_in is not None and way_in.kind is SiteKind.TOOL_REGISTRATION and \
            way_in.attr("receives") == "output":
        return "output_validator", way_in.id    # handed the model's output, not a tool call
    if way_in is not None:
        kind = _TOOL_KINDS.get(way_in.kind) or str(way_in.attr("entry_kind") or UNKNOWN)
        return kind, way_in.id
    if chain.entry.endswith(f".{MODULE_SCOPE}") and chain.hops:
        guards = chain.hops[0].call.guards
        main = any(g.condition is not None and "__main__" in g.condition.text for g in guards)
        return ("script" if main else "module_load"), None
    return UNKNOWN, None


def _ways_in(sites: tuple[Site, ...]) -> dict[str, Site]:
    """function node → what runs it from outside the code: a model-callable tool (or a
    Memrail action handler) first, else its most specific entry point (entrypoints.py)."""
    found = {function_node(key): site for key, site in entry_of(sites).items()}
    for site in sites:
        definition = site.attr("definition") if site.kind in _TOOL_KINDS else None
        if isinstance(definition, str) and definition:
            node = function_node(definition)
            known = found.get(node)
            if known is None or known.kind is SiteKind.ENTRY_POINT:
                found[node] = site
    return found


def _points_of(facts: OutcomeScope, chain: Chain, bypassed: set[str]) -> tuple[str, ...]:
    """The decision points deciding a chain: decision calls whose result guards or feeds it
    (unless an UNSAFE-FALLBACK shows the effect running when that call fails or selects
    nothing), and for a Memrail-registered tool, the points whose calls execute it and the
    points of the EMUs selecting it."""
    points: set[str] = set()
    for site_id in chain.enforced_by:
        site = facts.sites.get(site_id)
        if site is None:
            continue
        if site.kind is SiteKind.DECISION_CALL and site.id not in bypassed:
            points.add(str(site.attr("decision_point") or UNKNOWN))
        elif site.kind is SiteKind.TOOL_REGISTRATION and facts.knowledge.governed(site):
            points |= {str(facts.sites[s].attr("decision_point") or UNKNOWN)
                       for s, enforced in facts.authority_in.get(site.id, ())
                       if enforced and s in facts.sites
                       and facts.sites[s].kind is SiteKind.DECISION_CALL}
            name = site.attr("tool_name")
            points |= {e.decision_point for e in facts.emus if e.decision_point and name
                       and _selected_tool(e) == name}
    return tuple(sorted(points))


def _selected_tool(emu: Emu) -> str | None:
    action = emu_action(emu)
    return action.tool_id if action is not None and action.type == "tool_call" else None


def _candidates(facts: OutcomeScope, tools: tuple[str, ...], paths: tuple[OutcomePath, ...]
                ) -> tuple[CandidateEmu, ...]:
    """EMUs that can select this outcome: those whose `tool_call` names one of its tools, and
    those bound to a point whose call guards a path in code, unless they select another tool."""
    guarding = {str(facts.sites[s].attr("decision_point") or UNKNOWN) for p in paths
                for s in p.enforced_by if s in facts.sites
                and facts.sites[s].kind is SiteKind.DECISION_CALL} & \
        {point for p in paths for point in p.decision_points}
    chosen = []
    for emu in facts.emus:
        tool = _selected_tool(emu)
        if (tool is not None and tool in tools) or \
                (emu.decision_point in guarding and (tool is None or tool in tools)):
            row = facts.rows.get(emu.emu_key or "")
            chosen.append(CandidateEmu(
                emu.emu_key or UNKNOWN, emu.decision_point or UNKNOWN,
                row.trigger_reachable if row else UNKNOWN,
                row.action_connected if row else UNKNOWN,
                row.project_coherent if row else UNKNOWN, row.why if row else ()))
    return tuple(sorted(chosen, key=lambda c: c.emu_key))


def _authority(facts: OutcomeScope, ids: tuple[str, ...], paths: tuple[OutcomePath, ...]
               ) -> tuple[Authority, ...]:
    """Enforced authority, model-derived gates and config gates (authority that is not a
    model: it selects, it approves nothing a model proposes) on the chains, then authority
    edges into the executors or the tools that run them."""
    found: dict[str, Authority] = {}
    for path in paths:
        for site_id in path.enforced_by:
            found.setdefault(site_id, Authority(site_id, site_kind(facts, site_id), True, "chain"))
        for site_id in path.gates:
            found.setdefault(site_id, Authority(site_id, site_kind(facts, site_id), False, "chain"))
        for site_id in path.policies:
            found.setdefault(site_id, Authority(site_id, site_kind(facts, site_id), True, "chain"))
    targets = [*ids, *(s for p in paths for s in p.enforced_by if site_kind(facts, s) ==
                       SiteKind.TOOL_REGISTRATION.value)]
    for target in dict.fromkeys(targets):
        for source, enforced in facts.authority_in.get(target, ()):
            found.setdefault(source, Authority(source, site_kind(facts, source), enforced, "edge"))
    return tuple(found.values())


def _influences(facts: OutcomeScope, paths: tuple[OutcomePath, ...],
                candidates: tuple[CandidateEmu, ...]) -> Influences:
    """State and tags its decision points read, model outputs shaping a path or feeding an
    atom of those points, events its candidate EMUs read."""
    state: set[str] = set()
    tags: set[str] = set()
    fed: list[str] = []
    points = {point for p in paths for point in p.decision_points}
    for contract in facts.contracts.atom_contracts:
        if contract.decision_point in points:
            state |= {c.key for c in contract.state}
            tags |= {c.key for c in contract.tag}
            fed += [source for c in (*contract.state, *contract.tag) if c.atom
                    for source in facts.inference_in.get(c.atom, ())]
    keys = {c.emu_key for c in candidates}
    events: set[str] = set()
    for emu in facts.emus:
        if emu.emu_key in keys:
            for d in emu.dependencies:
                name = f"{d.project}.{d.key}" if d.project else d.key
                {"state": state, "tag": tags, "event": events}.get(d.kind, set()).add(name)
    models = tuple(dict.fromkeys([*(o for p in paths for o in p.proposed_by), *fed]))
    return Influences(tuple(sorted(state)), tuple(sorted(tags)), models, tuple(sorted(events)))


