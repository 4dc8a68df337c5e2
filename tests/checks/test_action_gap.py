"""ACTION-GAP: tools and handlers the selected action needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from emu_repos import emu, findings

DECIDE = ("from memrail import AMIClient\nfrom memrail.atoms import state\n"
          "from memrail.tools import ToolRegistry\n\n"
          'client = AMIClient(project="billing")\nregistry = ToolRegistry()\n\n\n'
          "def decide(ticket):\n"
          "    return client.decide(decision_point='billing.refund',\n"
          "                         context=[state('refund.request_id', ticket.id)])\n")
TRIGGER = "state.refund.request_id EXISTS"
ROUTE = {"type": "route", "destination": "fraud_review"}
PROMPT = {"type": "decision_prompt", "message": "Approve?",
          "options": [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}]}
DIRECTIVE = {"type": "context_directive", "directive": "Be careful."}


def _gaps(root: Path, action: dict | None, extra: str = "") -> list:
    return findings(root, "ACTION-GAP", {"app.py": DECIDE + extra}, [emu(TRIGGER, action=action)])


def test_an_unregistered_tool(tmp_path: Path) -> None:
    [found] = _gaps(tmp_path, None)
    assert found.emu_key == "billing.small_refund" and "`refund_payment`" in found.message


@pytest.mark.parametrize("extra", [
    '\n\n@registry.tool(name="refund_payment", description="x", projects=["billing"])\n'
    "async def refund(args: dict) -> dict:\n    return args\n",
    '\n\ndef run(action):\n'
    '    if action["tool"]["tool_id"] == "refund_payment":\n        return 1\n',
    '\n\nHANDLERS = {"refund_payment": print}\n',
    # A computed tool name may be this one.
    "\n\ndef register(name, handler):\n"
    '    registry.register_tool(name, "x", {}, ["billing"], handler)\n',
])
def test_a_tool_handled_somehow(tmp_path: Path, extra: str) -> None:
    assert _gaps(tmp_path, None, extra) == []


@pytest.mark.parametrize("action", [ROUTE, PROMPT, DIRECTIVE])
def test_unhandled_action_types(tmp_path: Path, action: dict) -> None:
    [found] = _gaps(tmp_path, action)
    assert f"`{action['type']}`" in found.message


@pytest.mark.parametrize(("action", "extra"), [
    (ROUTE, "\n\n@registry.on_route\nasync def go(destination, metadata):\n    return 1\n"),
    (PROMPT, "\n\n@registry.on_decision_prompt\nasync def ask(prompt, options):\n    return 1\n"),
    (DIRECTIVE, '\n\n@registry.on_context_directive("billing.refund")\n'
                "async def say(directive, metadata):\n    return 1\n"),
    (DIRECTIVE, "\n\n@registry.on_context_directive()\n"
                "async def say(directive, metadata):\n    return 1\n"),
    (ROUTE, '\n\ndef run(action):\n    if action["type"] == "route":\n        return 1\n'),
    (PROMPT, '\n\ndef run(action):\n    match action["type"]:\n'
             '        case "decision_prompt":\n            return 1\n'),
    (DIRECTIVE, '\n\ndef prompt(decision):\n'
                '    return [i.action["directive"] for i in decision.selected]\n'),
])
def test_handled_action_types(tmp_path: Path, action: dict, extra: str) -> None:
    assert _gaps(tmp_path, action, extra) == []


def test_a_directive_handler_for_another_point(tmp_path: Path) -> None:
    extra = ('\n\n@registry.on_context_directive("support.reply")\n'
             "async def say(directive, metadata):\n    return 1\n")
    [found] = _gaps(tmp_path, DIRECTIVE, extra)
    assert "`billing.refund`" in found.message and "`support.reply`" in found.message


def test_an_emu_only_repository_is_not_judged(tmp_path: Path) -> None:
    assert findings(tmp_path, "ACTION-GAP", {}, [emu(TRIGGER, action=ROUTE)]) == []
