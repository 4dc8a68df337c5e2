"""The answers to seed 000's questions 2 and 5-8 for one outcome, read off its paths: whether
it is authorized, whether a human reviews it, what happens when context is missing or a
dependency fails, whether one decision point covers every path, and whether its candidate EMUs
can match and act. Each answer carries its evidence; `outcomes.py` assembles them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import Knowledge
from topo.audit.contracts import UNKNOWN, Contracts, emu_action
from topo.audit.graph.reachability import ReachabilityRow
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["FAIL_OPEN", "FAIL_CLOSED", "YES", "NO", "NONE_FOUND", "Answer", "OutcomePath",
           "Authority", "HumanReview", "CandidateEmu", "OutcomeScope", "site_kind",
           "authorized_answer", "reviews_of", "human_answer", "missing_context_answer",
           "dependency_failure_answer", "single_point_answer", "emus_answer"]

FAIL_OPEN, FAIL_CLOSED = "fail-open", "fail-closed"
YES, NO, NONE_FOUND = "yes", "no", "none found"
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
    entry_kind: str = UNKNOWN        # how the chain starts: tool, scheduled_job, webhook, … (or
                                     # unknown: a function nothing calls or registers)
    entry_site: str | None = None    # the entry point or tool registration saying so
    policies: tuple[str, ...] = ()   # config gates on the chain (authority that is not a model)


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
class CandidateEmu:
    emu_key: str
    decision_point: str
    trigger_reachable: str
    action_connected: str
    project_coherent: str
    why: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OutcomeScope:
    """What the answers read: the run's sites, authority and inference edges, EMUs, matrix
    rows, handlers, contracts, pack knowledge and findings, keyed once per run."""

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
    ways_in: Mapping[str, Site] = field(default_factory=dict)   # function node -> the entry
                                                                # point or tool that runs it


def site_kind(facts: OutcomeScope, site_id: str) -> str:
    site = facts.sites.get(site_id)
    return site.kind.value if site is not None else UNKNOWN


def authorized_answer(paths: tuple[OutcomePath, ...], authority: tuple[Authority, ...]) -> Answer:
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
    if authority and all(a.kind == SiteKind.CONFIG_GATE.value for a in authority):
        return Answer("code policy only", "configuration, flag, role or database-rule checks "
                      "select it; none of them decides on what a model proposes")
    if authority:
        return Answer("advisory only", "only unenforced authority (a model-derived test, an "
                      "advisory rule) stands before it")
    return Answer("none", "nothing authorizes it in the audited code")


def reviews_of(facts: OutcomeScope, ids: tuple[str, ...], paths: tuple[OutcomePath, ...],
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


def human_answer(reviews: tuple[HumanReview, ...]) -> Answer:
    if not reviews:
        return Answer(NONE_FOUND, "no approval gate, approval-requiring tool, require_human "
                      "EMU, human_consent option or decision_prompt on its paths")
    return Answer(YES, "; ".join(dict.fromkeys(r.detail for r in reviews)),
                  tuple(r.evidence for r in reviews))


def _decided(paths: tuple[OutcomePath, ...]) -> tuple[list[OutcomePath], list[OutcomePath]]:
    return [p for p in paths if p.decision_points], [p for p in paths if not p.decision_points]


def missing_context_answer(facts: OutcomeScope, paths: tuple[OutcomePath, ...],
                           unsafe: list[Finding], candidates: tuple[CandidateEmu, ...]) -> Answer:
    """Fail-open when the effect runs as the decision comes back empty (UNSAFE-FALLBACK on an
    empty selection) or when a candidate EMU matches with an input absent (ABSENCE-PERMITS);
    fail-closed (inferred from Memrail's rule that a positive predicate on an absent atom is
    false) when every path is decided and no such finding exists."""
    empty = [f.fingerprint for f in unsafe if not _through_fallback(facts, f)
             and any(site_kind(facts, s) == SiteKind.DECISION_CALL.value for s in f.path)]
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


def dependency_failure_answer(facts: OutcomeScope, paths: tuple[OutcomePath, ...],
                              unsafe: list[Finding]) -> Answer:
    """Fail-open on an UNSAFE-FALLBACK through an `except` handler or on a verdict that lets a
    timeout through; fail-closed when every path is decided and no such finding exists: a
    handler around the decision call that does not run the effect, or no handler at all (the
    error propagates; inferred)."""
    failing = [f.fingerprint for f in unsafe if _through_fallback(facts, f)
               or not any(site_kind(facts, s) == SiteKind.DECISION_CALL.value for s in f.path)]
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


def _through_fallback(facts: OutcomeScope, finding: Finding) -> bool:
    return any(site_kind(facts, s) == SiteKind.FALLBACK.value for s in finding.path)


def single_point_answer(paths: tuple[OutcomePath, ...]) -> Answer:
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


def emus_answer(candidates: tuple[CandidateEmu, ...]) -> Answer:
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
