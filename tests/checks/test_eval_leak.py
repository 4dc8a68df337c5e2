"""EVAL-LEAK: dry-run selections that still drive live executors."""

from __future__ import annotations

from pathlib import Path

import pytest

from emu_repos import emu, findings
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


# ---- live selections run without the SDK executor's mode and lifecycle tests ----------------

ROUTE = {"type": "route", "destination": "escalations"}


def _live(tmp_path: Path, *, loop: str = "", mode: str = "auto", state: str = "active",
          action: dict | None = None, call: str = "decide", point: str = '"support.escalation"'):
    source = _app("").replace('decision_point="support.escalation"', f"decision_point={point}")
    source = source.replace("ami.decide(", f"ami.{call}(")
    source = source.replace("        slack.chat_postMessage", f"{loop}        slack.chat_postMessage")
    policy = {**emu("state.ticket.id EXISTS", action=action or ROUTE, mode=mode),
              "decision_point": "support.escalation", "state": state}
    return findings(tmp_path, CODE, {"app.py": source}, [policy])


def test_an_advisory_route_posted_by_hand(tmp_path: Path) -> None:
    [finding] = _live(tmp_path, mode="advisory")
    assert finding.location.line == 15 and finding.symbol == "app.escalate"
    assert "advisory EMU `billing.small_refund`" in finding.message
    assert "`slack_sdk.WebClient.chat_postMessage` (communication)" in finding.message


def test_a_canary_posted_by_hand(tmp_path: Path) -> None:
    [finding] = _live(tmp_path, state="canary")
    assert "canary EMU `billing.small_refund`" in finding.message


@pytest.mark.parametrize("loop", [
    '        if item.policy["mode"] != "auto":\n            continue\n',
    '        if item.policy.get("mode") == "advisory":\n            continue\n',
    # The seed's execution contract gets the whole item, metadata included.
    "        if not contract.allows(item, principal=ticket.owner):\n            continue\n",
])
def test_an_advisory_selection_tested_before_it_runs(tmp_path: Path, loop: str) -> None:
    assert _live(tmp_path, mode="advisory", loop=loop) == []


@pytest.mark.parametrize("loop", [
    '        if item.lifecycle_state == "canary" and not in_cohort(ticket):\n            continue\n',
    '        if item.get("lifecycle_state") != "active":\n            continue\n',
])
def test_a_canary_gated_by_a_cohort(tmp_path: Path, loop: str) -> None:
    assert _live(tmp_path, state="canary", loop=loop) == []


@pytest.mark.parametrize(("kwargs", "why"), [
    ({"mode": "advisory", "action": {"type": "decision_prompt", "message": "Escalate?",
                                     "options": [{"id": "y", "label": "Yes"}]}},
     "an advisory prompt may run"),
    ({"mode": "auto"}, "nothing the executor would hold back"),
    ({"mode": "advisory", "point": "ticket.point"}, "a computed point selects unknown EMUs"),
    ({"mode": "advisory", "call": "decide_and_execute"}, "the SDK executor tests the mode"),
])
def test_selections_the_executor_would_run_too(tmp_path: Path, kwargs: dict, why: str) -> None:
    assert _live(tmp_path, **kwargs) == [], why


def test_a_test_of_the_action_alone_is_no_mode_test(tmp_path: Path) -> None:
    loop = '        if item.action.get("type") != "route":\n            continue\n'
    assert len(_live(tmp_path, mode="advisory", loop=loop)) == 1


def test_a_dispatch_table_run_on_a_projection_of_the_actions(tmp_path: Path) -> None:
    source = ("from memrail import AMIClient\n\nami = AMIClient()\nTOOLS = {}\n\n\n"
              "def run(ticket):\n"
              '    decision = ami.decide(decision_point="support.escalation", context=[])\n'
              "    actions = [item.action for item in decision.selected]\n"
              "    for action in actions:\n"
              '        TOOLS[action["tool"]["tool_id"]](action["tool"]["args"])\n')
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert finding.location.line == 11
    assert "`[item.action for item in decision.selected]` keeps only the actions" in \
        finding.message
    assert "a function picked from `TOOLS`" in finding.message


def test_a_dry_run_is_reported_once(tmp_path: Path) -> None:
    source = _app("options=InvokeOptions(dry_run=True)")
    policy = {**emu("state.ticket.id EXISTS", action=ROUTE, mode="advisory"),
              "decision_point": "support.escalation"}
    [finding] = findings(tmp_path, CODE, {"app.py": source}, [policy])
    assert "dry-run selection" in finding.message


def test_a_dispatched_function_handed_the_whole_item_is_not_judged(tmp_path: Path) -> None:
    source = ("from memrail import AMIClient\n\nami = AMIClient()\nHANDLERS = {}\n\n\n"
              "def run(ticket):\n"
              '    decision = ami.decide(decision_point="support.escalation", context=[])\n'
              "    for item in decision.selected:\n"
              '        HANDLERS[item.action["type"]](item)\n')
    policy = {**emu("state.ticket.id EXISTS", action=ROUTE, mode="advisory"),
              "decision_point": "support.escalation"}
    assert findings(tmp_path, CODE, {"app.py": source}, [policy]) == []
    narrowed = source.replace("](item)", '](item.action["destination"])')
    assert len(findings(tmp_path / "n", CODE, {"app.py": narrowed}, [policy])) == 1


@pytest.mark.parametrize(("decider", "leaks"), [
    ("lambda decision, context: True", True),
    ("everyone", True),
    ("in_pilot", False),
    ("lambda decision, context: context['customer_id'] in PILOT", False),
])
def test_a_canary_cohort_decision(tmp_path: Path, decider: str, leaks: bool) -> None:
    source = ("from memrail import AMIClient\n\nami = AMIClient()\nPILOT = {'c1'}\n\n\n"
              "def everyone(decision, context):\n    return True\n\n\n"
              "def in_pilot(decision, context):\n"
              "    if context['customer_id'] in PILOT:\n        return True\n    return False\n\n\n"
              f"ami.configure_canary(decider={decider})\n")
    result = found(audit_source(tmp_path, {"app.py": source}), CODE)
    assert result == ([("app.py", 17)] if leaks else [])
