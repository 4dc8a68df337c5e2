"""The eight answers of seed 000's audit ("What the audit must answer"), per consequential
outcome: who proposes it, what authorizes it today, what influences it, which code executes
it, whether a human reviews it, what happens when context is missing or a dependency fails,
whether one decision point covers every path, and whether its candidate EMUs can match and act.

An outcome is an executor group: the consequential executor sites of one project (deployable)
that perform the same effect (the same tier and called API, and the same literal destination
where the code writes one),
with the call chains (wrappers, helpers, tools) that reach them. Computed once by the pipeline
from facts other stages computed (the chain query, the contracts, the reachability matrix, the
findings); nothing here is re-derived from source. Values name sites by id, EMUs by key and
findings by fingerprint; the reports show them. `UNKNOWN` is the answer when the code does not
say; an answer resting on Memrail's documented semantics rather than on code is `inferred`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.flow.roles import function_node
from topo.analyzers.model import Edge, EdgeKind, Site, SiteKind, Tier
from topo.analyzers.packs import Knowledge
from topo.audit.contracts import UNKNOWN, Contracts, emu_action
from topo.audit.graph.chains import Chain, Reach
from topo.audit.graph.reachability import ReachabilityRow
from topo.audit.model import Finding
from topo.audit.placement import Placement
from topo.audit.policy import Emu
from topo.audit.tool_inventory import Tool

__all__ = ["GROUPING_RULE", "FAIL_OPEN", "FAIL_CLOSED", "Answer", "OutcomePath", "Proposal",
           "Authority",
           "HumanReview", "Influences", "CandidateEmu", "Outcome", "outcomes_of"]

GROUPING_RULE = ("outcome = the consequential executor sites of one project with the same tier, "
                 "called API and literal destination (url, recipient, path, command, SQL, remote "
                 "tool), with every call chain the chain query finds to them")
FAIL_OPEN, FAIL_CLOSED = "fail-open", "fail-closed"
YES, NO, NONE_FOUND = "yes", "no", "none found"
_DESTINATIONS = ("url", "to", "path", "command", "sql", "tool_name")
_UNSAFE = "UNSAFE-FALLBACK"
_ABSENCE = "ABSENCE-PERMITS"


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer: its value, why (one sentence), the evidence (site ids, EMU keys or finding
    fingerprints, as `kind:id` for sites and as written for the others) and whether it rests
    on documented semantics rather than on the code."""

    value: str
    detail: str
    evidence: tuple[str, ...] = ()
    inferred: bool = False


@dataclass(frozen=True, slots=True)
class OutcomePath:
    """One call chain to one executor of the outcome."""

    executor: str                    # executor site id
    entry: str                       # function node where the chain starts
    functions: tuple[str, ...]       # function nodes the chain runs through, entry first
    proposed_by: tuple[str, ...]     # model output shaping it (inference, tool, dispatcher ids)
    enforced_by: tuple[str, ...]     # enforced authority on the chain (site ids), less a
                                     # decision call the effect runs without (UNSAFE-FALLBACK)
    gates: tuple[str, ...]           # model-derived tests on the chain (threshold, branch ids)
    decision_points: tuple[str, ...]   # the named decision points that decide this path
    selected_by_policy: bool = False   # the entry is a tool that runs only when an EMU selects it
    decision_calls: tuple[str, ...] = ()   # every decision call the chain waits for (site ids)


@dataclass(frozen=True, slots=True)
class Proposal:
    """Where the outcome can be proposed: an entry, and what proposes through it (model
    output sites; none when code alone decides, or when policy selects a registered tool)."""

    entry: str                       # function node
    model_outputs: tuple[str, ...]
    selected_by_policy: bool
    decision_points: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Authority:
    site: str
    kind: str                        # the site kind (decision_call, approval_gate, …)
    enforced: bool
    source: str                      # "chain" (on a call chain) or "edge" (an authority edge)


@dataclass(frozen=True, slots=True)
class HumanReview:
    kind: str        # approval_gate, tool_approval, require_human, human_consent, decision_prompt
    evidence: str    # a site id or an EMU key
    detail: str


@dataclass(frozen=True, slots=True)
class Influences:
    state: tuple[str, ...]           # state keys supplied to, or read at, its decision points
    tags: tuple[str, ...]
    model_outputs: tuple[str, ...]   # inference / tool / dispatcher site ids shaping a path
    events: tuple[str, ...]          # events its candidate EMUs read


@dataclass(frozen=True, slots=True)
class CandidateEmu:
    emu_key: str
    decision_point: str
    trigger_reachable: str
    action_connected: str
    project_coherent: str
    why: tuple[str, ...]


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


@dataclass(frozen=True, slots=True)
class _Facts:
    sites: dict[str, Site]
    authority_in: dict[str, list[tuple[str, bool]]]
    inference_in: dict[str, list[str]]     # target -> the inference-edge sources into it
    emus: tuple[Emu, ...]
    rows: dict[str, ReachabilityRow]
    fallbacks: tuple[Site, ...]            # the `except` handlers around control calls
    prompt_handlers: tuple[str, ...]       # decision_prompt action handler site ids
    contracts: Contracts
    knowledge: Knowledge
    findings: tuple[Finding, ...]


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
    facts = _Facts({s.id: s for s in sites}, authority_in, inference_in, tuple(emus),
                   {row.emu_key: row for row in rows},
                   tuple(s for s in sites if s.kind is SiteKind.FALLBACK),
                   tuple(s.id for s in sites if s.kind is SiteKind.ACTION_HANDLER
                         and s.attr("action_type") == "decision_prompt"),
                   contracts, knowledge, findings)
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


def _outcome(facts: _Facts, key: tuple[str, str, str, str | None], members: list[Site],
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
    reviews = _reviews(facts, ids, paths, candidates)
    authority = _authority(facts, ids, paths)
    return Outcome(
        project=project, effect=effect, tier=tier, destination=destination, executors=ids, tools=named,
        paths=paths, proposals=tuple(dict.fromkeys(
            Proposal(p.entry, p.proposed_by, p.selected_by_policy,
                     p.decision_points if p.selected_by_policy else ()) for p in paths)),
        authority=authority, authorized=_authorized(paths, authority),
        influences=_influences(facts, paths, candidates), human_review=_human(reviews),
        reviews=reviews, on_missing_context=_missing_context(facts, paths, unsafe, candidates),
        on_dependency_failure=_dependency_failure(facts, paths, unsafe),
        single_point=_single_point(paths), candidate_emus=candidates,
        emus_reachable_and_connected=_emus_answer(candidates),
        findings=tuple(f.fingerprint for f in mine))


def _path(facts: _Facts, chain: Chain, bypassed: set[str]) -> OutcomePath:
    functions = tuple(dict.fromkeys((chain.entry, *(
        function_node(function_key(h.file, h.call.scope)) for h in chain.hops))))
    governed = any(s in facts.sites and facts.sites[s].kind is SiteKind.TOOL_REGISTRATION
                   and facts.knowledge.governed(facts.sites[s]) for s in chain.enforced_by)
    calls = tuple(s for s in chain.enforced_by if _kind(facts, s) == "decision_call")
    return OutcomePath(chain.executor.id, chain.entry, functions, chain.origins,
                       tuple(s for s in chain.enforced_by if s not in bypassed), chain.gates,
                       _points_of(facts, chain, bypassed), governed, calls)


def _points_of(facts: _Facts, chain: Chain, bypassed: set[str]) -> tuple[str, ...]:
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


def _candidates(facts: _Facts, tools: tuple[str, ...], paths: tuple[OutcomePath, ...]
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


def _authority(facts: _Facts, ids: tuple[str, ...], paths: tuple[OutcomePath, ...]
               ) -> tuple[Authority, ...]:
    """Enforced authority and model-derived gates on the chains, then authority edges into
    the executors or the tools that run them (config gates, thresholds, approvals: authority
    that is not the model's)."""
    found: dict[str, Authority] = {}
    for path in paths:
        for site_id in path.enforced_by:
            found.setdefault(site_id, Authority(site_id, _kind(facts, site_id), True, "chain"))
        for site_id in path.gates:
            found.setdefault(site_id, Authority(site_id, _kind(facts, site_id), False, "chain"))
    targets = [*ids, *(s for p in paths for s in p.enforced_by if _kind(facts, s) ==
                       SiteKind.TOOL_REGISTRATION.value)]
    for target in dict.fromkeys(targets):
        for source, enforced in facts.authority_in.get(target, ()):
            found.setdefault(source, Authority(source, _kind(facts, source), enforced, "edge"))
    return tuple(found.values())


def _kind(facts: _Facts, site_id: str) -> str:
    site = facts.sites.get(site_id)
    return site.kind.value if site is not None else UNKNOWN


def _authorized(paths: tuple[OutcomePath, ...], authority: tuple[Authority, ...]) -> Answer:
    """The evidence is the outcome's `authority` list."""
    if not paths:
        return Answer(UNKNOWN, "no call chain to its executors was found")
    enforced = [p for p in paths if p.enforced_by]
    if len(enforced) == len(paths):
        return Answer("enforced", "an enforced check stands on every path")
    if enforced:
        return Answer("partly enforced", f"{len(paths) - len(enforced)} of {len(paths)} paths "
                      "have no enforced check")
    if any(p.decision_calls for p in paths):
        return Answer("bypassed", "a decision call stands on the path, but the effect runs "
                      "without its selection (see UNSAFE-FALLBACK)")
    if authority:
        return Answer("advisory only", "only unenforced authority (a model-derived test, an "
                      "advisory rule) stands before it")
    return Answer("none", "nothing authorizes it in the audited code")


def _influences(facts: _Facts, paths: tuple[OutcomePath, ...],
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


def _reviews(facts: _Facts, ids: tuple[str, ...], paths: tuple[OutcomePath, ...],
             candidates: tuple[CandidateEmu, ...]) -> tuple[HumanReview, ...]:
    found: list[HumanReview] = []
    enforced = [s for p in paths for s in p.enforced_by]
    on_paths = dict.fromkeys([*enforced, *(s for i in (*ids, *enforced)
                                           for s, _ in facts.authority_in.get(i, ()))])
    for site_id in on_paths:
        site = facts.sites.get(site_id)
        if site is None:
            continue
        if site.kind is SiteKind.APPROVAL_GATE and site.attr("approver") != "model":
            found.append(HumanReview("approval_gate", site_id, "an approval gate stands on "
                                     "the path"))
        elif site.kind is SiteKind.TOOL_REGISTRATION and facts.knowledge.requires_approval(site):
            found.append(HumanReview("tool_approval", site_id, "the tool registration requires "
                                     "a human approval before each call"))
        elif site.kind is SiteKind.DECISION_CALL and site.attr("human_consent") is True:
            found.append(HumanReview("human_consent", site_id, "the decision call passes "
                                     "human_consent=True"))
    keys = {c.emu_key for c in candidates}
    points = {c.decision_point for c in candidates}
    for emu in facts.emus:
        mode = emu.policy.get("mode") if isinstance(emu.policy, dict) else None
        action = emu_action(emu)
        if not emu.emu_key:
            continue
        if emu.emu_key in keys and mode == "require_human":
            found.append(HumanReview("require_human", emu.emu_key, "the EMU's policy mode is "
                                     "require_human: it acts only with options.human_consent"))
        elif emu.decision_point in points and action is not None \
                and action.type == "decision_prompt":
            found.append(HumanReview("decision_prompt", emu.emu_key, "the point can ask a "
                                     "person (a decision_prompt EMU); handlers: "
                                     + (", ".join(facts.prompt_handlers) or "none found")))
    return tuple(found)


def _human(reviews: tuple[HumanReview, ...]) -> Answer:
    if not reviews:
        return Answer(NONE_FOUND, "no approval gate, approval-requiring tool, require_human "
                      "EMU, human_consent option or decision_prompt on its paths")
    return Answer(YES, "; ".join(dict.fromkeys(r.detail for r in reviews)),
                  tuple(r.evidence for r in reviews))


def _decided(paths: tuple[OutcomePath, ...]) -> tuple[list[OutcomePath], list[OutcomePath]]:
    return [p for p in paths if p.decision_points], [p for p in paths if not p.decision_points]


def _missing_context(facts: _Facts, paths: tuple[OutcomePath, ...], unsafe: list[Finding],
                     candidates: tuple[CandidateEmu, ...]) -> Answer:
    """Fail-open when the effect runs as the decision comes back empty (UNSAFE-FALLBACK on an
    empty selection) or when a candidate EMU matches with an input absent (ABSENCE-PERMITS);
    fail-closed (inferred from Memrail's rule that a positive predicate on an absent atom is
    false) when every path is decided and no such finding exists."""
    empty = [f.fingerprint for f in unsafe if not _through_fallback(facts, f)
             and any(_kind(facts, s) == SiteKind.DECISION_CALL.value for s in f.path)]
    keys = {c.emu_key for c in candidates}
    permits = [f.fingerprint for f in facts.findings
               if f.code.id == _ABSENCE and f.emu_key in keys]
    if empty or permits:
        return Answer(FAIL_OPEN, "the effect runs when the decision selects nothing"
                      if empty else "a candidate EMU matches while an input it reads is absent",
                      (*empty, *permits))
    decided, undecided = _decided(paths)
    if not paths or undecided:
        return Answer(UNKNOWN, "no call chain to its executors was found" if not paths else
                      f"{len(undecided)} of {len(paths)} paths read no context through a "
                      "decision point; the code does not say what they do without it")
    return Answer(FAIL_CLOSED, "every path is decided: with a required atom absent no EMU "
                  "matches and nothing is selected", tuple(sorted(
                      {p for path in decided for p in path.decision_points})), inferred=True)


def _dependency_failure(facts: _Facts, paths: tuple[OutcomePath, ...],
                        unsafe: list[Finding]) -> Answer:
    """Fail-open on an UNSAFE-FALLBACK through an `except` handler or on a verdict that lets a
    timeout through; fail-closed when every path is decided and no such finding exists: a
    handler around the decision call that does not run the effect, or no handler at all (the
    error propagates; inferred)."""
    failing = [f.fingerprint for f in unsafe if _through_fallback(facts, f)
               or not any(_kind(facts, s) == SiteKind.DECISION_CALL.value for s in f.path)]
    if failing:
        return Answer(FAIL_OPEN, "the effect runs when the control call fails", tuple(failing))
    waiting = [p for p in paths if p.decision_calls or p.selected_by_policy]
    if not paths or len(waiting) < len(paths):
        return Answer(UNKNOWN, "no call chain to its executors was found" if not paths else
                      f"{len(paths) - len(waiting)} of {len(paths)} paths depend on no decision "
                      "call; the code does not say how they fail")
    calls = {s for p in waiting for s in p.decision_calls}
    call_ids = {str(facts.sites[s].attr("call")) for s in calls}
    handlers = tuple(s.id for s in facts.fallbacks if call_ids & set(s.attr("controls") or ()))
    if handlers:
        return Answer(FAIL_CLOSED, "the handler around the decision call does not run the "
                      "effect", handlers)
    if calls:
        return Answer(FAIL_CLOSED, "no handler catches a failed decision call: the error "
                      "propagates before the effect", tuple(sorted(calls)), inferred=True)
    return Answer(FAIL_CLOSED, "the tool runs only when the decision engine selects it: a "
                  "failed decision executes nothing", tuple(sorted(
                      {p for path in waiting for p in path.decision_points})), inferred=True)


def _through_fallback(facts: _Facts, finding: Finding) -> bool:
    return any(_kind(facts, s) == SiteKind.FALLBACK.value for s in finding.path)


def _single_point(paths: tuple[OutcomePath, ...]) -> Answer:
    if not paths:
        return Answer(UNKNOWN, "no call chain to its executors was found")
    common = set(paths[0].decision_points)
    for path in paths[1:]:
        common &= set(path.decision_points)
    if common:
        which = "its one path is" if len(paths) == 1 else f"all of its {len(paths)} paths are"
        return Answer(YES, f"{which} decided at " + ", ".join(sorted(common)),
                      tuple(sorted(common)))
    undecided = [p for p in paths if not p.decision_points]
    if undecided:
        return Answer(NO, f"{len(undecided)} of {len(paths)} paths pass no decision point",
                      tuple(dict.fromkeys(p.entry for p in undecided)))
    return Answer(NO, "its paths are decided at different points", tuple(sorted(
        {point for p in paths for point in p.decision_points})))


def _emus_answer(candidates: tuple[CandidateEmu, ...]) -> Answer:
    if not candidates:
        return Answer(NONE_FOUND, "no EMU selects this outcome")
    keys = tuple(c.emu_key for c in candidates)
    bad = [c for c in candidates if c.trigger_reachable == "no" or c.action_connected == "no"
           or c.project_coherent == "no"]
    if bad:
        return Answer(NO, "; ".join(w for c in bad for w in c.why) or
                      "a candidate EMU cannot match or act", tuple(c.emu_key for c in bad))
    partial = [c for c in candidates if (c.trigger_reachable, c.action_connected,
                                         c.project_coherent) != (YES, YES, YES)]
    if partial:
        return Answer("partial", "; ".join(w for c in partial for w in c.why) or
                      "a candidate EMU can match only on some paths",
                      tuple(c.emu_key for c in partial))
    return Answer(YES, "every candidate EMU is reachable, connected and coherent", keys)
