"""EVAL-LEAK: dry-run selections that still drive live executors."""

from __future__ import annotations

from pathlib import Path

import pytest

from source_repos import audit_source, found, only

CODE = "EVAL-LEAK"


def _app(options: str, loop: str = "", signature: str = "ticket") -> str:
    """A hand-written dispatch loop over a decision; `loop` lines go before the effect."""
    return (
        "from memrail import AMIClient\n"
        "from memrail.atoms import state\n"
        "from memrail.models import InvokeOptions\n"
        "from slack_sdk import WebClient\n"
        "\n"
        "ami = AMIClient()\n"
        'slack = WebClient(token="t")\n'
        "SHADOW = True\n"
        "\n"
        "\n"
        f"def escalate({signature}):\n"
        '    decision = ami.decide(decision_point="support.escalation",\n'
        f'                          context=[state("ticket.id", ticket.id)], {options})\n'
        "    for item in decision.selected:\n"
        f"{loop}"
        '        slack.chat_postMessage(channel="#x", text=item.action["message"])\n')


@pytest.mark.parametrize("options", [
    "options=InvokeOptions(dry_run=True)",
    'options={"dry_run": True}',
    "options=InvokeOptions(dry_run=SHADOW)",
])
def test_a_literal_dry_run_dispatched_by_hand(tmp_path: Path, options: str) -> None:
    finding = only(audit_source(tmp_path, {"app.py": _app(options)}), CODE)
    assert finding.location.line == 15 and finding.symbol == "app.escalate"
    assert "dry-run selection of `AMIClient.decide` (`support.escalation`)" in finding.message
    assert finding.path[0].startswith("decision_call:")


def test_a_live_decision_is_not_a_leak(tmp_path: Path) -> None:
    findings = audit_source(tmp_path, {"app.py": _app("options=InvokeOptions(dry_run=False)")})
    assert found(findings, CODE) == []


def test_a_computed_flag_the_loop_ignores(tmp_path: Path) -> None:
    source = _app("options=InvokeOptions(dry_run=evaluation_only)",
                  signature="ticket, evaluation_only=True")
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert "without testing `evaluation_only`" in finding.message


def test_a_computed_flag_the_loop_checks(tmp_path: Path) -> None:
    source = _app("options=InvokeOptions(dry_run=evaluation_only)",
                  loop="        if evaluation_only:\n            continue\n",
                  signature="ticket, evaluation_only=True")
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []


def test_a_computed_flag_passed_on_to_the_dispatcher(tmp_path: Path) -> None:
    source = """
        import requests
        from memrail import AMIClient
        from memrail.models import InvokeOptions

        ami = AMIClient()


        def handle_selected_action(item, evaluation_only=True):
            if evaluation_only:
                return None
            return requests.post("https://tools/run", json=item.action["tool"])


        def before_tool_call(evaluation_only=True):
            decision = ami.decide(decision_point="agent.before_tool_call", context=[],
                                  options=InvokeOptions(dry_run=evaluation_only))
            for item in decision.selected:
                handle_selected_action(item, evaluation_only=evaluation_only)
        """
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []


def test_the_sdk_helper_skips_registered_handlers(tmp_path: Path) -> None:
    source = """
        from memrail import AsyncAMIClient
        from memrail.models import InvokeOptions
        from memrail.tools import ToolRegistry
        from slack_sdk import WebClient

        ami = AsyncAMIClient()
        registry = ToolRegistry()
        slack = WebClient(token="t")


        @registry.tool(name="post", description="Post", projects=["support"])
        async def post(args: dict) -> dict:
            slack.chat_postMessage(channel="#x", text=args["message"])
            return {}


        async def escalate():
            await ami.decide_and_execute(decision_point="support.escalation", context=[],
                                         options=InvokeOptions(dry_run=True), auto_ack=True)
        """
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []
