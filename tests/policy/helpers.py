"""Small helpers for the policy tests: a valid EMU to mutate, and one-call lint runners."""

from __future__ import annotations

import copy
from typing import Any

from topo.analyzers.model import Location
from topo.audit.model import Finding
from topo.audit.policy import Emu, PolicyConfig, lint_emu

# Seed 000, "EMU anatomy" (support.critical_enterprise): valid, and clean under every lint.
ANATOMY: dict[str, Any] = {
    "emu_key": "support.critical_enterprise",
    "decision_point": "support.triage",
    "intent": "Escalate unresolved critical enterprise cases",
    "trigger": "state.customer.tier == 'enterprise' AND state.ticket.priority == 'critical' "
               "AND state.ticket.id EXISTS",
    "action": {"type": "tool_call", "intent": "ESCALATE_TICKET",
               "tool": {"tool_id": "ticket_escalator", "version": "1.0.0",
                        "args": {"ticket_id": "{{ticket.id}}", "queue": "enterprise-critical"}}},
    "policy": {"mode": "auto", "priority": 9, "cooldown": {"seconds": 3600, "gate": "ack"},
               "idempotency": {"enabled": True, "boundary": "workspace", "roles": "auto",
                               "scope": ["ticket.id"]},
               "exclusion_groups": ["ticket-routing"]},
    "expected_utility": 0.95,
    "confidence": 0.9,
    "state": "shadow",
}


def anatomy(**changes: Any) -> dict[str, Any]:
    """A deep copy of ANATOMY with dotted-path changes; the value `DELETE` removes the key."""
    emu = copy.deepcopy(ANATOMY)
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        target = emu
        for name in parents:
            target = target[name]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
    return emu


DELETE = object()


def findings(raw: dict[str, Any], config: PolicyConfig = PolicyConfig()) -> tuple[Finding, ...]:
    return lint_emu(Emu.from_object(raw, Location("emus/emus.jsonl", 1)), config)


def codes_of(raw: dict[str, Any], config: PolicyConfig = PolicyConfig()) -> list[str]:
    return [f.code.id for f in findings(raw, config)]


def messages_of(raw: dict[str, Any], code: str | None = None) -> list[str]:
    return [f.message for f in findings(raw) if code is None or f.code.id == code]
