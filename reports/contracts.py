"""TOPOLOGY_STATE sections about decision points: where they are called, which atoms and events
feed them (seed 000 §5, atom contracts), who produces those events, and whether the actions
EMUs select have handlers (§6, action connectivity).

Every value is read off the audit document; what the document does not know is `unknown`.
"""

from __future__ import annotations

from collections import defaultdict

from topo.reports._index import UNKNOWN, DocumentIndex, local_symbol

__all__ = ["atom_contracts", "decision_points", "event_producers", "action_connectivity",
           "location"]

_ACTION_HANDLER_TYPES = ("route", "decision_prompt", "context_directive")
_GAP_CODES = ("ACTION-GAP", "COHERENCE-GAP")


def location(file: str | None, symbol: str | None) -> str:
    """`file:Class.method`, the locator seed 000 uses (line numbers drift)."""
    return f"{file or UNKNOWN}:{local_symbol(file, symbol)}"


def decision_points(index: DocumentIndex) -> list[dict]:
    calls: dict[str, list[dict]] = defaultdict(list)
    for site in index.sites_of_kind("decision_call"):
        point = site["attrs"].get("decision_point")
        calls[str(point) if point else UNKNOWN].append(site)
    emus: dict[str, list[str]] = defaultdict(list)
    for emu in index.document["emus"]:
        emus[emu["decision_point"] or UNKNOWN].append(emu["emu_key"])
    entries = []
    for name in sorted(set(calls) | set(emus)):
        entries.append({
            "name": name,
            "calls": [{"file": s["file"], "symbol": local_symbol(s["file"], s["symbol"]),
                       "line": s["line"], "project": index.project_of(s["file"]),
                       "memrail_project": s["attrs"].get("project", UNKNOWN),
                       "enforced": s["attrs"].get("enforced", UNKNOWN),
                       "executes_selection": s["attrs"].get("executes", UNKNOWN)}
                      for s in calls.get(name, [])],
            "emus": sorted(emus.get(name, [])),
            "status": _point_status(bool(calls.get(name)), bool(emus.get(name))),
        })
    entries.extend(_inferred_points(index))
    return entries


def _inferred_points(index: DocumentIndex) -> list[dict]:
    """Decision points the audit inferred: the gates that decide effects without an engine."""
    entries = []
    for node in index.document.get("nodes", []):
        if node["kind"] != "decision_point" or not node["inferred"]:
            continue
        gates = sorted(r["source"] for r in index.document.get("relations", [])
                       if r["target"] == node["id"] and r["kind"] == "binds")
        inputs = sorted(r["source"] for r in index.document.get("relations", [])
                        if r["target"] == node["id"] and r["kind"] == "observation")
        entries.append({"name": node["id"].removeprefix("decision_point:"), "inferred": True,
                        "location": f"{node['file']}:{local_symbol(node['file'], node['symbol'])}",
                        "calls": [], "emus": [], "gates": gates, "inputs": inputs,
                        "status": "inferred: code decides here with no decision engine"})
    return entries


def _point_status(called: bool, bound: bool) -> str:
    if called and bound:
        return "invoked and bound"
    if called:
        return "invoked; no EMU in the audited tree binds it"
    return "bound by EMUs; never invoked in the audited code"


def atom_contracts(index: DocumentIndex) -> list[dict]:
    """One contract per decision call: the atoms passed to it and the events its EMUs read."""
    contracts = []
    for call in index.sites_of_kind("decision_call"):
        point = call["attrs"].get("decision_point")
        atoms = [index.sites[a] for a in index.sources(call["id"], "observation")
                 if a in index.sites and index.sites[a]["kind"] == "atom"]
        emus = [e for e in index.document["emus"] if point and e["decision_point"] == point]
        contracts.append({
            "decision_point": str(point) if point else UNKNOWN,
            "location": location(call["file"], call["symbol"]),
            "line": call["line"],
            "callers": _callers(index, call["symbol"]),
            "state_candidates": _candidates(atoms, emus, "state"),
            "tag_candidates": _candidates(atoms, emus, "tag"),
            "event_candidates": _event_candidates(index, emus),
        })
    return sorted(contracts, key=lambda c: (c["decision_point"], c["location"], c["line"]))


def _callers(index: DocumentIndex, symbol: str) -> list[str]:
    callers = index.sources(f"function:{symbol}", "calls")
    return sorted({location(index.nodes.get(c, {}).get("file"), c.removeprefix("function:"))
                   for c in callers})


def _candidates(atoms: list[dict], emus: list[dict], kind: str) -> dict:
    found: dict[str, dict] = {}
    for atom in sorted(atoms, key=lambda a: a["line"]):
        attrs = atom["attrs"]
        if attrs.get("kind") != kind or not attrs.get("key"):
            continue
        value_type = attrs.get("value_type")
        entry = {"source": attrs.get("source", UNKNOWN),
                 "value": attrs.get("value_text", UNKNOWN),
                 "type": UNKNOWN if value_type in (None, "dynamic") else value_type,
                 "presence": "conditional" if attrs.get("conditional") else "always",
                 "line": atom["line"]}
        if attrs.get("conditional"):
            entry["condition"] = attrs.get("condition", UNKNOWN)
        found.setdefault(str(attrs["key"]), entry)
    for key in _required(emus, kind):
        found.setdefault(key, {"source": UNKNOWN, "value": UNKNOWN, "type": UNKNOWN,
                               "presence": "absent (an EMU reads it; no atom builds it here)"})
    return dict(sorted(found.items()))


def _required(emus: list[dict], kind: str) -> list[str]:
    return sorted({d["key"] for e in emus for d in e["dependencies"]
                   if d["kind"] == kind and not d["project"]})


def _event_candidates(index: DocumentIndex, emus: list[dict]) -> dict:
    producers = _producers(index)
    events = {}
    for name in _required(emus, "event"):
        sites = producers.get(name, [])
        events[name] = {
            "producer": list(dict.fromkeys(location(s["file"], s["symbol"]) for s in sites)) or
                        "none found (a ghost guard if the trigger negates it)",
            "attributes": sorted({k for s in sites for k in s["attrs"].get("attribute_keys")
                                  or ()}) if sites else UNKNOWN,
        }
    return events


def _producers(index: DocumentIndex) -> dict[str, list[dict]]:
    """Event name → the sites that emit it (emit calls, and event atoms that are built)."""
    producers: dict[str, list[dict]] = defaultdict(list)
    for site in index.sites_of_kind("event_emit"):
        names = site["attrs"].get("event_names") or [site["attrs"].get("event_name")]
        for name in names:
            if name:
                producers[str(name)].append(site)
    for site in index.sites_of_kind("atom"):
        if site["attrs"].get("kind") == "event" and site["attrs"].get("key"):
            producers[str(site["attrs"]["key"])].append(site)
    return producers


def event_producers(index: DocumentIndex) -> list[dict]:
    producers = _producers(index)
    consumers: dict[str, list[dict]] = defaultdict(list)
    for emu in index.document["emus"]:
        for dependency in emu["dependencies"]:
            if dependency["kind"] == "event":
                name = f"{dependency['project']}.{dependency['key']}" if dependency["project"] \
                    else dependency["key"]
                consumers[name].append({"emu_key": emu["emu_key"],
                                        "polarity": dependency["polarity"],
                                        "window": dependency["window"] or UNKNOWN})
    entries = []
    for name in sorted(set(producers) | set(consumers)):
        sites = sorted(producers.get(name, []), key=lambda s: (s["file"], s["line"], s["id"]))
        entries.append({
            "event": name,
            "producers": [{"file": s["file"], "symbol": local_symbol(s["file"], s["symbol"]),
                           "line": s["line"], "kind": s["kind"],
                           "attributes": list(s["attrs"].get("attribute_keys") or []),
                           "conditional": bool(s["attrs"].get("conditional"))} for s in sites],
            "consumers": _unique(consumers.get(name, [])),
            "status": "produced" if sites else "consumed but never produced in the audited code",
        })
    return entries


def _unique(rows: list[dict]) -> list[dict]:
    seen, unique = set(), []
    for row in rows:
        key = tuple(sorted(row.items()))
        if key not in seen:
            seen.add(key)
            unique.append(row)
    return sorted(unique, key=lambda r: (r["emu_key"], r["polarity"]))


def action_connectivity(index: DocumentIndex) -> dict:
    """`tool_call.<tool_id>`, `route.<emu>`, `decision_prompt.<emu>`… → how it is handled.

    The status is read off the EMU's ACTION-GAP / COHERENCE-GAP findings, so it never disagrees
    with them.
    """
    gaps: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for finding in index.document["findings"]:
        if finding["code"] in _GAP_CODES and finding.get("emu_key"):
            gaps[finding["emu_key"]].append((finding["id"], finding["code"]))
    actions: dict[str, dict] = {}
    registrations = _registrations(index)
    for emu in index.document["emus"]:
        action = emu.get("action") or {}
        kind = action.get("type") or UNKNOWN
        name = action.get("tool_id") if kind == "tool_call" else emu["emu_key"]
        entry = actions.setdefault(f"{kind}.{name or UNKNOWN}", _action_entry(
            index, kind, name, registrations))
        entry["used_by"].append(emu["emu_key"])
        if action.get("version"):
            entry["version"] = action["version"]
        entry["findings"].extend(gaps.get(emu["emu_key"], []))
    for tool, sites in registrations.items():
        actions.setdefault(f"tool_call.{tool}", _action_entry(index, "tool_call", tool,
                                                               registrations))
    for entry in actions.values():
        entry["status"] = _action_status(entry)
        entry["findings"] = sorted({finding_id for finding_id, _ in entry["findings"]})
        entry["used_by"] = sorted(entry["used_by"])
    return dict(sorted(actions.items()))


def _registrations(index: DocumentIndex) -> dict[str, list[dict]]:
    tools: dict[str, list[dict]] = defaultdict(list)
    for site in index.sites_of_kind("tool_registration"):
        if site["attrs"].get("tool_name"):
            tools[str(site["attrs"]["tool_name"])].append(site)
    return tools


def _action_entry(index: DocumentIndex, kind: str, name: str | None,
                  registrations: dict[str, list[dict]]) -> dict:
    entry: dict = {"used_by": [], "findings": []}
    if kind == "tool_call":
        sites = registrations.get(name or "", [])
        executors = [index.sites[t] for s in sites for t in index.targets(s["id"], "execution")
                     if t in index.sites]
        entry.update(
            schema_registered=bool(sites),
            framework=sites[0]["attrs"].get("framework", UNKNOWN) if sites else UNKNOWN,
            executor=location(sites[0]["file"], sites[0]["symbol"]) if sites else UNKNOWN,
            effects=sorted({f"{e['attrs'].get('callee', UNKNOWN)} "
                            f"({e['attrs'].get('tier', UNKNOWN)})" for e in executors}),
            version=UNKNOWN,
            projects=sorted({p for s in sites for p in s["attrs"].get("projects") or ()})
            or UNKNOWN)
    elif kind in _ACTION_HANDLER_TYPES:
        handlers = [s for s in index.sites_of_kind("action_handler")
                    if s["attrs"].get("action_type") == kind]
        entry["handler"] = [location(h["file"], h["symbol"]) for h in handlers] or "missing"
    return entry


def _action_status(entry: dict) -> str:
    codes = {code for _, code in entry["findings"]}
    if "ACTION-GAP" in codes:
        return "missing"
    if codes:
        return "partially_connected"     # a coherence gap: handled, but in another project
    if entry.get("schema_registered") or entry.get("handler") not in (None, "missing"):
        return "connected"
    # Handled by a dispatcher branch the checks accepted, but not a registered tool: the report
    # cannot point at a versioned executor.
    return "partially_connected"
