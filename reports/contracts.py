"""TOPOLOGY_STATE sections about decision points: where they are called, which atoms and events
feed them (seed 000 §5, atom contracts), who produces those events, and whether the actions
EMUs select have handlers (§6, action connectivity).

The facts are the pipeline's (`audit/contracts.py`, in the document under `CONTRACTS`); this
module only shows them: locations, site details, finding ids, and `unknown` for what the
document does not know.
"""

from __future__ import annotations

from topo.audit.contracts import (ActionConnection, AtomContract, Candidate, Contracts,
                                  DecisionPoint, EventFlow, EventNeed, InferredPoint)
from topo.reports._index import UNKNOWN, DocumentIndex, local_symbol
from topo.reports.document import CONTRACTS, FINDING_FACTS

__all__ = ["atom_contracts", "decision_points", "event_producers", "action_connectivity",
           "location"]


def location(file: str | None, symbol: str | None) -> str:
    """`file:Class.method`, the locator seed 000 uses (line numbers drift)."""
    return f"{file or UNKNOWN}:{local_symbol(file, symbol)}"


def _contracts(index: DocumentIndex) -> Contracts:
    return index.document[CONTRACTS]


def decision_points(index: DocumentIndex) -> list[dict]:
    contracts = _contracts(index)
    ids = {f["fingerprint"]: f["id"] for f in index.document["findings"]}
    concern: dict[str, list[str]] = {}
    for fingerprint, point in index.document[FINDING_FACTS].points:
        concern.setdefault(point, []).append(ids[fingerprint])
    return [*({**_point(index, point), "findings": concern.get(point.name, [])}
              for point in contracts.points),
            *({**_inferred(point), "findings": concern.get(point.name, [])}
              for point in contracts.inferred_points)]


def _point(index: DocumentIndex, point: DecisionPoint) -> dict:
    calls = [index.sites[site_id] for site_id in point.calls]
    projects = dict(_contracts(index).call_projects)
    return {
        "name": point.name,
        "calls": [{"file": s["file"], "symbol": local_symbol(s["file"], s["symbol"]),
                   "line": s["line"], "project": index.project(s["id"]),
                   "memrail_project": projects.get(s["id"], UNKNOWN),
                   "enforced": s["attrs"].get("enforced", UNKNOWN),
                   "executes_selection": s["attrs"].get("executes", UNKNOWN)}
                  for s in calls],
        "emus": list(point.emus),
        "status": point.status,
    }


def _inferred(point: InferredPoint) -> dict:
    """A decision point the audit inferred: a gate that decides effects without an engine."""
    return {"name": point.name, "inferred": True,
            "location": f"{point.file}:{local_symbol(point.file, point.symbol)}",
            "calls": [], "emus": [], "gates": list(point.gates), "inputs": list(point.inputs),
            "status": "inferred: code decides here with no decision engine"}


def atom_contracts(index: DocumentIndex) -> list[dict]:
    """One contract per decision call: the atoms passed to it and the events its EMUs read."""
    contracts = [_atom_contract(index, c) for c in _contracts(index).atom_contracts]
    return sorted(contracts, key=lambda c: (c["decision_point"], c["location"], c["line"]))


def _atom_contract(index: DocumentIndex, contract: AtomContract) -> dict:
    call = contract.call
    return {
        "decision_point": contract.decision_point,
        "location": location(call.location.file, call.symbol),
        "line": call.location.line,
        "callers": sorted({location(c.file, c.function.removeprefix("function:"))
                           for c in contract.callers}),
        "state_candidates": _candidates(index, contract.state),
        "tag_candidates": _candidates(index, contract.tag),
        "event_candidates": {need.event: _event_need(index, need) for need in contract.events},
    }


def _candidates(index: DocumentIndex, candidates: tuple[Candidate, ...]) -> dict:
    found: dict[str, dict] = {}
    for candidate in candidates:
        if candidate.atom is None:
            found[candidate.key] = {
                "source": UNKNOWN, "value": UNKNOWN, "type": UNKNOWN,
                "presence": "absent (an EMU reads it; no atom builds it here)"}
            continue
        atom = index.sites[candidate.atom]
        attrs = atom["attrs"]
        value_type = attrs.get("value_type")
        if value_type in (None, "dynamic"):
            value_type = candidate.type or UNKNOWN
        entry = {"source": attrs.get("source", UNKNOWN),
                 "value": attrs.get("value_text", UNKNOWN),
                 "type": value_type,
                 "presence": "conditional" if attrs.get("conditional") else "always",
                 "line": atom["line"]}
        if candidate.type_source is not None and candidate.type == value_type:
            entry["type_from"] = candidate.type_source
        if candidate.domain is not None:
            entry["domain"] = list(candidate.domain)
        if attrs.get("conditional"):
            entry["condition"] = attrs.get("condition", UNKNOWN)
        found[candidate.key] = entry
    return found


def _event_need(index: DocumentIndex, need: EventNeed) -> dict:
    sites = [index.sites[site_id] for site_id in need.producers]
    return {
        "producer": list(dict.fromkeys(location(s["file"], s["symbol"]) for s in sites)) or
                    "none found (a ghost guard if the trigger negates it)",
        "attributes": sorted({k for s in sites for k in s["attrs"].get("attribute_keys")
                              or ()}) if sites else UNKNOWN,
    }


def event_producers(index: DocumentIndex) -> list[dict]:
    return [_event_flow(index, flow) for flow in _contracts(index).events]


def _event_flow(index: DocumentIndex, flow: EventFlow) -> dict:
    sites = [index.sites[site_id] for site_id in flow.producers]
    return {
        "event": flow.event,
        "producers": [{"file": s["file"], "symbol": local_symbol(s["file"], s["symbol"]),
                       "line": s["line"], "kind": s["kind"],
                       "attributes": list(s["attrs"].get("attribute_keys") or []),
                       "conditional": bool(s["attrs"].get("conditional"))} for s in sites],
        "consumers": [{"emu_key": c.emu_key, "polarity": c.polarity,
                       "window": c.window or UNKNOWN} for c in flow.consumers],
        "status": "produced" if sites else "consumed but never produced in the audited code",
    }


def action_connectivity(index: DocumentIndex) -> dict:
    """`tool_call.<tool_id>`, `route.<emu>`, `decision_prompt.<emu>`… → how it is handled."""
    ids = {f["fingerprint"]: f["id"] for f in index.document["findings"]}
    return {action.key: _action(index, action, ids) for action in _contracts(index).actions}


def _action(index: DocumentIndex, action: ActionConnection, ids: dict[str, str]) -> dict:
    entry: dict = {"used_by": list(action.used_by),
                   "findings": sorted({ids[fp] for fp, _ in action.gaps if fp in ids})}
    if action.kind == "tool_call":
        sites = [index.sites[site_id] for site_id in action.registrations]
        executors = [index.sites[site_id] for site_id in action.executors]
        entry.update(
            schema_registered=bool(sites),
            framework=sites[0]["attrs"].get("framework", UNKNOWN) if sites else UNKNOWN,
            executor=_executor(action, sites),
            effects=sorted({f"{e['attrs'].get('callee', UNKNOWN)} "
                            f"({e['attrs'].get('tier', UNKNOWN)})" for e in executors}),
            version=action.version or UNKNOWN,
            projects=sorted({p for s in sites for p in s["attrs"].get("projects") or ()})
            or UNKNOWN,
            retry_policy=action.retry_policy or UNKNOWN,
            idempotency=action.idempotency or UNKNOWN,
            outcome_event=list(action.outcome_events) or UNKNOWN,
            timeout=action.timeout or UNKNOWN,
            timeout_outcome=action.timeout_outcome or UNKNOWN)
    else:
        if action.handlers is not None:
            entry["handler"] = [location(index.sites[h]["file"], index.sites[h]["symbol"])
                                for h in action.handlers] or "missing"
        if action.version:
            entry["version"] = action.version
        entry.update(timeout=action.timeout or UNKNOWN,
                     timeout_outcome=action.timeout_outcome or UNKNOWN)
    if action.incomplete:
        entry["incomplete_because"] = list(action.incomplete)
    entry["status"] = action.status
    return entry


def _executor(action: ActionConnection, sites: list[dict]) -> str:
    """The function the tool runs: the handler a registration names, not the function that
    registers it (`setup()` calling `register_tool(…, handler=notify)` runs `notify`)."""
    if action.handler is not None:
        return location(action.handler.file, action.handler.key)
    if not sites:
        return UNKNOWN
    definition = sites[0]["attrs"].get("definition")
    return location(sites[0]["file"], definition or sites[0]["symbol"])
