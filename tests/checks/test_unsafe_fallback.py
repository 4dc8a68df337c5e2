"""UNSAFE-FALLBACK: failures and empty selections of a control call that still execute."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.model import Severity
from source_repos import audit_source, found, only

CODE = "UNSAFE-FALLBACK"
HEADER = """
import json
import smtplib
import stripe
from memrail import AMIClient
from memrail.atoms import state
from memrail.errors import AMIError
from openai import OpenAI

client = OpenAI()
ami = AMIClient()


def refund(ticket):
    reply = client.chat.completions.create(model="gpt-4o", messages=[])
    plan = json.loads(reply.choices[0].message.content)
"""
DECIDE = '    decision = ami.decide(decision_point="support.refund", context=[])\n'


def _app(tmp_path: Path, body: str):
    return audit_source(tmp_path, {"app.py": HEADER + body})


def test_the_proposal_in_the_handler_is_reported_at_the_handler_call(tmp_path: Path) -> None:
    body = ("    try:\n" + "    " + DECIDE +
            "    except AMIError:\n"
            "        stripe.Refund.create(charge=plan['charge'])\n")
    finding = only(_app(tmp_path, body), CODE)
    assert (finding.location.line, finding.symbol) == (19, "app.refund")
    assert finding.severity is Severity.CRITICAL
    assert "`except` handler of `AMIClient.decide` (`support.refund`)" in finding.message
    assert finding.path[0].startswith("inference:") and finding.path[-1].startswith("executor:")
    assert any(p.startswith("fallback:") for p in finding.path)


def test_an_alert_without_the_proposal_is_not_a_fallback(tmp_path: Path) -> None:
    body = ("    try:\n" + "    " + DECIDE +
            "    except AMIError:\n"
            "        smtplib.SMTP('localhost').sendmail('a@x', ['ops@x'], 'decide is down')\n")
    assert found(_app(tmp_path, body), CODE) == []


def test_the_governed_effect_repeated_in_the_handler_is_reported(tmp_path: Path) -> None:
    body = ("    try:\n" + "    " + DECIDE +
            "    except AMIError:\n"
            "        stripe.Refund.create(charge=ticket.charge_id)\n"
            "        return\n"
            "    if decision.selected:\n"
            "        stripe.Refund.create(charge=ticket.charge_id)\n")
    assert found(_app(tmp_path, body), CODE) == [("app.py", 19)]


def test_a_handler_that_asks_a_human_is_not_reported(tmp_path: Path) -> None:
    body = ("    try:\n" + "    " + DECIDE +
            "    except AMIError:\n"
            "        answer = interrupt({'question': 'refund?', 'plan': plan})\n"
            "        if answer:\n"
            "            stripe.Refund.create(charge=plan['charge'])\n")
    source = HEADER.replace("import json\n", "import json\nfrom langgraph.types import interrupt\n")
    assert found(audit_source(tmp_path, {"app.py": source + body}), CODE) == []


@pytest.mark.parametrize("branch", [
    "    if not decision.selected:\n        stripe.Refund.create(charge=plan['c'])\n",
    "    if len(decision.selected) == 0:\n        stripe.Refund.create(charge=plan['c'])\n",
    "    if decision is None:\n        stripe.Refund.create(charge=plan['c'])\n",
    "    if decision.selected:\n        return\n    stripe.Refund.create(charge=plan['c'])\n",
    "    if decision.selected:\n        pass\n"
    "    else:\n        stripe.Refund.create(charge=plan['c'])\n",
])
def test_branches_taken_on_an_empty_selection(tmp_path: Path, branch: str) -> None:
    finding = only(_app(tmp_path, DECIDE + branch), CODE)
    assert "an empty selection of `AMIClient.decide`" in finding.message


@pytest.mark.parametrize("branch", [
    "    if not decision.selected:\n        return\n    stripe.Refund.create(charge=plan['c'])\n",
    "    if decision.selected:\n        stripe.Refund.create(charge=plan['c'])\n",
    "    for item in decision.selected:\n        stripe.Refund.create(charge=plan['c'])\n",
    "    if len(decision.selected) > 0:\n        stripe.Refund.create(charge=plan['c'])\n",
    "    if not decision.selected:\n        stripe.Refund.create(charge=ticket.charge_id)\n",
])
def test_branches_taken_on_a_selection_or_without_the_proposal(tmp_path: Path,
                                                                branch: str) -> None:
    assert found(_app(tmp_path, DECIDE + branch), CODE) == []


def test_the_fastapi_fallback_corpus_app(corpus: Path) -> None:
    from topo.audit.pipeline import AuditRequest, run_audit
    result = run_audit(AuditRequest(root=corpus / "apps" / "fastapi_fallback", jobs=1,
                                    cache_dir=None))
    assert found(result.findings, CODE) == [("service/api.py", 30)]


DISPATCH = """
import json
import stripe
import tools
from memrail import AMIClient
from memrail.errors import AMIError
from openai import OpenAI

client = OpenAI()
ami = AMIClient()


def refund(charge):
    stripe.Refund.create(charge=charge)


TOOLS = {"refund": refund}


def run(message):
    reply = client.chat.completions.create(model="gpt-4o", messages=[])
    call = json.loads(reply.choices[0].message.content)
    try:
        decision = ami.decide(decision_point="support.tools", context=[])
    except AMIError:
        return {dispatch}(**call["arguments"])
"""


def test_a_dispatch_table_in_the_handler(tmp_path: Path) -> None:
    source = DISPATCH.replace("{dispatch}", 'TOOLS[call["name"]]')
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert finding.location.line == 25
    assert finding.message.endswith("runs `stripe.Refund.create` (money) through `TOOLS[*]`")


def test_a_dispatch_the_analysis_cannot_follow(tmp_path: Path) -> None:
    source = DISPATCH.replace("{dispatch}", 'getattr(tools, call["name"])')
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert finding.location.line == 25 and finding.severity is Severity.HIGH
    assert "dispatches the model's choice through `getattr()`" in finding.message


VERDICT_HEADER = """
import os

import stripe
from mubit import Client

client = Client(api_key=os.environ["MUBIT_API_KEY"], run_id="r")


def refund(ticket):
    verdict = client.handoff(session_id="r", task_id="t", from_agent_id="ari",
                             to_agent_id="human-lead", requested_action="approve",
                             content="refund", await_verdict=True)
"""


@pytest.mark.parametrize(("test", "reported"), [
    ('    if verdict == "block":\n        return\n', True),
    ('    if verdict in ["block", "reject"]:\n        return\n', True),
    ('    if verdict is None or verdict == "block":\n        return\n', True),
    ('    if verdict != "approve":\n        return\n', False),
    ('    if verdict == "block" and ticket.vip:\n        return\n', False),
])
def test_a_verdict_tested_only_against_refusals_lets_unknown_answers_through(
        tmp_path: Path, test: str, reported: bool) -> None:
    body = test + "    stripe.Refund.create(charge=ticket.charge)\n"
    findings = _app_with(tmp_path, VERDICT_HEADER + body)
    assert found(findings, CODE) == ([("app.py", 13)] if reported else [])


def test_a_branch_on_inequality_to_a_refusal_is_negative_polarity(tmp_path: Path) -> None:
    body = '    if verdict != "reject":\n        stripe.Refund.create(charge=ticket.charge)\n'
    finding = only(_app_with(tmp_path, VERDICT_HEADER + body), CODE)
    assert finding.location.line == 13
    assert "handoff verdict" in finding.message and "None" in finding.message


def _app_with(tmp_path: Path, text: str):
    return audit_source(tmp_path, {"app.py": text})
