"""MODEL-CONSENT: consent the model supplies, in options, tool parameters and branches."""

from __future__ import annotations

from pathlib import Path

import pytest

from source_repos import audit_source, found, only

CODE = "MODEL-CONSENT"
DECIDE = """
import json
from memrail import AMIClient
from memrail.models import InvokeOptions
from openai import OpenAI

client = OpenAI()
ami = AMIClient()
REVIEWED = {}


def refund(ticket):
    reply = client.chat.completions.create(model="gpt-4o", messages=[])
    review = json.loads(reply.choices[0].message.content)
    return ami.decide(decision_point="support.refund", context=[],
                      options=InvokeOptions(human_consent={consent}))
"""


def test_consent_from_the_model_in_the_options(tmp_path: Path) -> None:
    source = DECIDE.replace("{consent}", 'review["approved"]')
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert finding.location.line == 14 and finding.symbol == "app.refund"
    assert "`human_consent` of `AMIClient.decide` (`support.refund`)" in finding.message
    assert finding.path[0].startswith("inference:") and finding.snippet == 'review["approved"]'


@pytest.mark.parametrize("consent", ["True", "REVIEWED.get(ticket.id) is not None"])
def test_consent_the_application_establishes(tmp_path: Path, consent: str) -> None:
    source = DECIDE.replace("{consent}", consent)
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []


TOOL = """
import requests
from agents import function_tool
from memrail.tools import ToolRegistry

registry = ToolRegistry()


{decorator}
def cancel_order(order_id: str, force: bool = False) -> str:
    requests.delete(f"https://orders/{order_id}", timeout=5)
    return "cancelled"
"""


def test_a_consent_parameter_on_a_model_tool(tmp_path: Path) -> None:
    source = TOOL.replace("{decorator}", "@function_tool")
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert finding.location.line == 9 and finding.symbol == "app.cancel_order"
    assert "tool `cancel_order` lets the model set the consent parameter `force`" == \
        finding.message


@pytest.mark.parametrize("decorator", [
    "@function_tool(needs_approval=True)",
    '@registry.tool(name="cancel_order", description="Cancel", projects=["shop"])',
])
def test_parameters_the_model_does_not_control(tmp_path: Path, decorator: str) -> None:
    source = TOOL.replace("{decorator}", decorator)
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []


def test_a_consent_parameter_is_reported_once_not_again_at_its_branch(tmp_path: Path) -> None:
    source = TOOL.replace("{decorator}", "@function_tool").replace(
        '    requests.delete', '    if force:\n        requests.delete')
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == [("app.py", 9)]


BRANCH = """
import json
import resend
from openai import OpenAI

client = OpenAI()


def send(text, to):
    review = client.responses.create(model="gpt-4o-mini", input=text)
    verdict = json.loads(review.output_text)
    if {test}:
        resend.Emails.send({"to": to, "text": text})
"""


@pytest.mark.parametrize("test", ['verdict["approved"]', "verdict.get('user_confirmed')"])
def test_a_branch_on_the_models_approval(tmp_path: Path, test: str) -> None:
    findings = audit_source(tmp_path, {"app.py": BRANCH.replace("{test}", test)})
    assert found(findings, CODE) == [("app.py", 11)]


def test_a_branch_on_another_model_field_is_hidden_authority_only(tmp_path: Path) -> None:
    findings = audit_source(tmp_path, {"app.py": BRANCH.replace("{test}", 'verdict["ok"]')})
    assert found(findings, CODE) == []
    assert found(findings, "HIDDEN-AUTHORITY") == [("app.py", 11)]
