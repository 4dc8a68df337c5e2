"""TOPOLOGY_STATE's `outcomes` section: seed 000's eight answers for each consequential outcome
(an executor group), as the pipeline computed them (`audit/outcomes.py`, in the document under
`OUTCOMES`). This module only shows them: sites as `file:symbol` with their line, findings by
id, and `unknown` where the pipeline does not know.
"""

from __future__ import annotations

from topo.audit.outcomes import (Answer, Authority, CandidateEmu, Outcome, OutcomePath,
                                 Proposal)
from topo.reports._index import UNKNOWN, DocumentIndex
from topo.reports.contracts import location
from topo.reports.document import OUTCOMES

__all__ = ["outcomes_section"]


def outcomes_section(index: DocumentIndex) -> list[dict]:
    ids = {f["fingerprint"]: f["id"] for f in index.document["findings"]}
    return [_outcome(index, outcome, ids) for outcome in index.document[OUTCOMES]]


def _outcome(index: DocumentIndex, outcome: Outcome, ids: dict[str, str]) -> dict:
    points = [e for e in outcome.single_point.evidence if outcome.single_point.value == "yes"]
    return {
        "outcome": f"{outcome.effect} ({outcome.tier})",
        "effect": outcome.effect,
        "tier": outcome.tier,
        "project": outcome.project,
        "destination": outcome.destination or UNKNOWN,
        "proposed_at": [_proposal(index, p) for p in outcome.proposals] or UNKNOWN,
        "authorized_at": {**_answer(index, outcome.authorized, ids),
                          "authority": [_authority(index, a) for a in outcome.authority]},
        "influenced_by": {
            "state": list(outcome.influences.state) or UNKNOWN,
            "tags": list(outcome.influences.tags) or UNKNOWN,
            "model_outputs": [_site(index, s) for s in outcome.influences.model_outputs]
            or "none found",
            "events": list(outcome.influences.events) or "none read by its EMUs"},
        "executed_by": {"executors": [_site(index, s) for s in outcome.executors],
                        "tools": list(outcome.tools)},
        "human_review_path": {**_answer(index, outcome.human_review, ids),
                              "reviews": [{"kind": r.kind, "evidence": _ref(index, r.evidence, ids),
                                           "detail": r.detail} for r in outcome.reviews]},
        "on_missing_context": _answer(index, outcome.on_missing_context, ids),
        "on_dependency_failure": _answer(index, outcome.on_dependency_failure, ids),
        "single_decision_point_covers_all_paths": _flag(outcome.single_point.value),
        "covering_decision_points": points or "none",
        "decision_point_coverage": _answer(index, outcome.single_point, ids),
        "candidate_emus": [_candidate(c) for c in outcome.candidate_emus],
        "candidate_emus_reachable_and_connected":
            _answer(index, outcome.emus_reachable_and_connected, ids),
        "paths": [_path(index, path) for path in outcome.paths],
        "findings": [ids[fp] for fp in outcome.findings if fp in ids],
    }


def _flag(value: str) -> bool | str:
    return {"yes": True, "no": False}.get(value, UNKNOWN)


def _answer(index: DocumentIndex, answer: Answer, ids: dict[str, str]) -> dict:
    entry: dict = {"answer": answer.value, "detail": answer.detail,
                   "evidence": [_ref(index, item, ids) for item in answer.evidence]}
    if answer.inferred:
        entry["inferred"] = True
    return entry


def _ref(index: DocumentIndex, item: str, ids: dict[str, str]) -> str:
    """A site as `file:line (kind)`, a finding by id, a function by its qualified name; an EMU
    key or point name as written."""
    if item.startswith("function:"):
        return _function(item)
    if item in index.sites:
        site = index.sites[item]
        return f"{site['file']}:{site['line']} ({site['kind']})"
    return ids.get(item, item)


def _site(index: DocumentIndex, site_id: str) -> dict:
    site = index.sites.get(site_id)
    if site is None:
        return {"location": UNKNOWN, "line": UNKNOWN, "kind": UNKNOWN, "id": site_id}
    return {"location": location(site["file"], site["symbol"]), "line": site["line"],
            "kind": site["kind"]}


def _function(node: str) -> str:
    return node.removeprefix("function:")


def _proposal(index: DocumentIndex, proposal: Proposal) -> dict:
    if proposal.model_outputs:
        via = [_site(index, s) for s in proposal.model_outputs]
    elif proposal.selected_by_policy:
        via = "policy selection (an EMU selects the tool at " + \
              (", ".join(proposal.decision_points) or UNKNOWN) + ")"
    else:
        via = "code (no model output shapes this path)"
    return {"entry": _function(proposal.entry), "via": via,
            **_entry_kind(index, proposal.entry_kind, proposal.entry_site)}


def _entry_kind(index: DocumentIndex, kind: str, site_id: str | None) -> dict:
    """How a path starts (tool, scheduled_job, queue_consumer, webhook, http_route, cli, …;
    unknown for a function nothing in the code calls or registers), and where that is said."""
    site = index.sites.get(site_id) if site_id else None
    return {"entry_kind": kind,
            "entry_at": f"{site['file']}:{site['line']}" if site is not None else UNKNOWN}


def _authority(index: DocumentIndex, authority: Authority) -> dict:
    site = index.sites.get(authority.site)
    entry = {**_site(index, authority.site), "enforced": authority.enforced}
    if site is not None and site["kind"] == "decision_call":
        entry["decision_point"] = site["attrs"].get("decision_point", UNKNOWN)
    if site is not None and site["kind"] == "config_gate":
        entry["authority_kind"] = site["attrs"].get("authority_kind", "flag")
        entry["model_authority"] = False
    return entry


def _candidate(candidate: CandidateEmu) -> dict:
    return {"emu": candidate.emu_key, "decision_point": candidate.decision_point,
            "trigger_reachable": candidate.trigger_reachable,
            "action_connected": candidate.action_connected,
            "project_coherent": candidate.project_coherent, "why": list(candidate.why)}


def _path(index: DocumentIndex, path: OutcomePath) -> dict:
    return {"entry": _function(path.entry),
            **_entry_kind(index, path.entry_kind, path.entry_site),
            "through": [_function(f) for f in path.functions],
            "executor": _site(index, path.executor),
            "decision_points": list(path.decision_points) or "none",
            "enforced_by": [_site(index, s) for s in path.enforced_by] or "none"}
