"""TOPOLOGY_STATE's view of authority and ways in that are not a model: configuration, flag,
role and rule gates as inferred `decision_points` (each with the effects it selects), and the
`entry_points` section (scheduled jobs, queue consumers, webhooks, routes, commands, with the
effects they reach). The facts are the pipeline's (`audit/code_authority.py`, in the document
under `CODE_AUTHORITY`); this module only shows them.
"""

from __future__ import annotations

from topo.audit.code_authority import CodeAuthority, EntryPoint, PolicyGate
from topo.reports._index import UNKNOWN, DocumentIndex, local_symbol
from topo.reports.document import CODE_AUTHORITY

__all__ = ["policy_points", "entry_points_section"]

_WHAT = {"config": "configuration", "flag": "a feature flag or experiment",
         "role": "a role or tier check", "rule": "a rule read from the database"}


def _facts(index: DocumentIndex) -> CodeAuthority:
    return index.document.get(CODE_AUTHORITY) or CodeAuthority()


def policy_points(index: DocumentIndex) -> list[dict]:
    """One inferred decision point per gate that is not a model and selects an effect."""
    ids = {f["fingerprint"]: f["id"] for f in index.document["findings"]}
    return [_gate(index, gate, ids) for gate in _facts(index).gates]


def _gate(index: DocumentIndex, gate: PolicyGate, ids: dict[str, str]) -> dict:
    site = index.sites.get(gate.site)
    attrs = site["attrs"] if site is not None else {}
    label = attrs.get("flag") or attrs.get("operand") or UNKNOWN
    what = _WHAT.get(gate.kind, gate.kind)
    return {
        "name": f"~{gate.kind}:{label}",
        "inferred": True,
        "authority": gate.kind,
        "model_authority": False,
        "location": _where(site),
        "line": site["line"] if site is not None else UNKNOWN,
        "evidence": _evidence(attrs),
        "selects": [_effect(index, e) for e in gate.selects],
        "entries": [e.removeprefix("function:") for e in gate.entries],
        "model_output_on_path": gate.model_shaped,
        "calls": [], "emus": [],
        "status": f"inferred: {what} selects the effect here; it is not a model's authority "
                  "and approves nothing a model proposes",
        "findings": [ids[fp] for fp in gate.findings if fp in ids],
    }


def _evidence(attrs: dict) -> str:
    """The test as written: `settings.AUTO_REFUND` (truthy), `user.role == admin`, or the read
    call (`ldclient.get.variation` of `auto-refund`)."""
    if attrs.get("operand"):
        op, value = attrs.get("op", ""), attrs.get("value")
        if op in ("truthy", "falsy") or value is None:
            return f"{attrs['operand']} ({op or 'read'})"
        if attrs.get("value_side") == "left":
            return f"{value} {op} {attrs['operand']}"
        return f"{attrs['operand']} {op} {value}"
    return f"{attrs.get('callee', UNKNOWN)} of {attrs.get('flag', UNKNOWN)}"


def entry_points_section(index: DocumentIndex) -> list[dict]:
    return [_entry(index, entry) for entry in _facts(index).entries]


def _entry(index: DocumentIndex, entry: EntryPoint) -> dict:
    site = index.sites.get(entry.site)
    attrs = site["attrs"] if site is not None else {}
    found = {"kind": entry.kind, "function": entry.function.removeprefix("function:"),
             "location": _where(site), "line": site["line"] if site is not None else UNKNOWN,
             "system": site["system"] if site is not None else UNKNOWN,
             "reaches": [_effect(index, e) for e in entry.reaches] or "no consequential effect"}
    for name in ("schedule", "queue", "method", "path", "verified_by"):
        if attrs.get(name) is not None:
            found[name] = attrs[name]
        elif attrs.get(f"{name}_text") is not None:
            found[name] = attrs[f"{name}_text"]
    return found


def _where(site: dict | None) -> str:
    if site is None:
        return UNKNOWN
    return f"{site['file']}:{local_symbol(site['file'], site['symbol'])}"


def _effect(index: DocumentIndex, executor: str) -> dict:
    site = index.sites.get(executor)
    if site is None:
        return {"effect": UNKNOWN, "executor": executor}
    attrs = site["attrs"]
    name = attrs.get("callee") or attrs.get("definition") or UNKNOWN
    return {"effect": f"{name} ({attrs.get('tier', UNKNOWN)})", "executor": _where(site),
            "line": site["line"]}
