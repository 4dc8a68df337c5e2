"""EMU-SCHEMA lints beyond what the JSON Schema can say: defaults and legacy payloads.

Both are reported at low severity: the object registers and runs, but what runs is not what the
file says (a defaulted score) or depends on the SDK version (a legacy payload key).
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.model import Severity
from topo.audit.policy.lints._lint import Issue, Lint, LintContext

__all__ = ["LINTS"]

# memrail-facts §3.1 and §11: the sync reader fills these in when they are absent.
_SCORE_DEFAULTS = {"expected_utility": 0.8, "confidence": 0.9}

# Legacy payload keys still read by SDK 0.4.0 (memrail-facts §1, §3.2): key → documented key.
_LEGACY_PAYLOAD = {
    ("route", "route"): "destination",
    ("decision_prompt", "prompt"): "message` and `options",
}


def defaulted_scores(context: LintContext) -> Iterator[Issue]:
    """Arbitration uses 0.7 × utility + 0.3 × confidence; a silent default ranks the EMU on a
    number nobody chose."""
    for name, default in _SCORE_DEFAULTS.items():
        if name not in context.emu.raw:
            yield Issue(f"`{name}` is missing, so the Memrail CLI ranks this EMU with the "
                        f"default {default}", (name,), Severity.LOW)


def legacy_payload(context: LintContext) -> Iterator[Issue]:
    """`route.route` and `decision_prompt.prompt` run on SDK 0.4.0 but not on handlers written
    from the current docs, which read `destination` and `message`/`options`."""
    action_type = context.emu.action.get("type")
    for (kind, key), documented in _LEGACY_PAYLOAD.items():
        if action_type == kind and key in context.emu.action:
            yield Issue(f"`action.{key}` is the legacy {kind} payload of SDK 0.4.0; the "
                        f"documented {kind} payload is `{documented}`", ("action", key),
                        Severity.LOW)


LINTS: tuple[Lint, ...] = (
    Lint("defaulted_scores", codes.EMU_SCHEMA, ("expected_utility", "confidence"),
         defaulted_scores),
    Lint("legacy_payload", codes.EMU_SCHEMA, ("action.type",), legacy_payload),
)
