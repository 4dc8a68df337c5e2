"""POLICY-GAP: side effects without duplicate protection, and idempotency written the old way.

Seed 000 ("Write and validate EMUs", "Idempotency"): side effects need "deliberately scoped
cooldowns, literal-key idempotency, and executor-level duplicate protection"; `scope` holds
"literal state atom keys, not `{{...}}` templates"; use structured `policy.idempotency`, "not
the legacy `idempotency_key_template` field". The server's `WARN-POLICY-GAP` is the same
heuristic.

A `tool_call` is side-effecting unless `action.tool.side_effect` is `false`, the mark the
quickstart's read-only formatter carries. Only `auto` mode (the default when `policy.mode` is
absent) dispatches without a human or advisory stop, so only `auto` is checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from topo.audit import codes
from topo.audit.policy.lints._lint import Issue, Lint, LintContext
from topo.audit.policy.templates import has_template

__all__ = ["LINTS", "is_side_effecting", "protection_gap"]

_LEGACY_TEMPLATE = "idempotency_key_template"


def is_side_effecting(action: dict[str, Any]) -> bool:
    """A tool call whose tool is not marked `side_effect: false`."""
    tool = action.get("tool")
    return (action.get("type") == "tool_call"
            and not (isinstance(tool, dict) and tool.get("side_effect") is False))


def protection_gap(policy: dict[str, Any]) -> str | None:
    """What is missing, in words, or None when idempotency or a cooldown protects the EMU."""
    idempotency = policy.get("idempotency")
    cooldown = policy.get("cooldown")
    seconds = cooldown.get("seconds") if isinstance(cooldown, dict) else None
    if isinstance(seconds, int) and seconds > 0:
        return None
    if not isinstance(idempotency, dict):
        idempotency_text = "no structured idempotency"
    elif idempotency.get("enabled") is not True:
        idempotency_text = "idempotency disabled"
    elif not idempotency.get("scope"):
        idempotency_text = "idempotency enabled with an empty scope"
    else:
        return None
    cooldown_text = "a 0-second cooldown" if seconds == 0 else "no cooldown"
    return f"{idempotency_text} and {cooldown_text}"


def unprotected_side_effect(context: LintContext) -> Iterator[Issue]:
    emu = context.emu
    if not is_side_effecting(emu.action) or emu.policy.get("mode", "auto") != "auto":
        return
    if _LEGACY_TEMPLATE in emu.policy:
        return  # legacy_idempotency_template reports this EMU's one protection defect
    gap = protection_gap(emu.policy)
    if gap is not None:
        tool_id = emu.action.get("tool", {}).get("tool_id", "?")
        yield Issue(f"side-effecting tool_call `{tool_id}` runs in auto mode with {gap}",
                    ("policy",))


def legacy_idempotency_template(context: LintContext) -> Iterator[Issue]:
    if _LEGACY_TEMPLATE in context.emu.policy:
        yield Issue(f"`policy.{_LEGACY_TEMPLATE}` is the legacy idempotency field, not "
                    "structured `policy.idempotency`", ("policy", _LEGACY_TEMPLATE))


def templated_scope(context: LintContext) -> Iterator[Issue]:
    idempotency = context.emu.policy.get("idempotency")
    scope = idempotency.get("scope") if isinstance(idempotency, dict) else None
    for index, entry in enumerate(scope if isinstance(scope, list) else ()):
        if isinstance(entry, str) and has_template(entry):
            yield Issue(f"`policy.idempotency.scope[{index}]` is the template {entry!r}; scope "
                        "entries are literal state keys", ("policy", "idempotency", "scope",
                                                           index))


LINTS: tuple[Lint, ...] = (
    Lint("unprotected_side_effect", codes.POLICY_GAP,
         ("action.type", "action.tool.side_effect", "policy.mode", "policy.cooldown",
          "policy.idempotency", "policy." + _LEGACY_TEMPLATE),
         unprotected_side_effect),
    Lint("legacy_idempotency_template", codes.POLICY_GAP, ("policy." + _LEGACY_TEMPLATE,),
         legacy_idempotency_template),
    Lint("templated_scope", codes.POLICY_GAP, ("policy.idempotency.scope",), templated_scope),
)
