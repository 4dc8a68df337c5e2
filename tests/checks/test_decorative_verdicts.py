"""ADVISORY-ONLY-POLICY, decorative verdicts: a verdict asked for and then not used."""

from __future__ import annotations

from pathlib import Path

import pytest

from source_repos import audit_source, found, only

CODE = "ADVISORY-ONLY-POLICY"
APP = '''
import stripe
from memrail import AMIClient
from openai import OpenAI

client = OpenAI()
ami = AMIClient()


def collect(invoice, attempts):
    reply = client.responses.create(model="gpt-4o", input="approve?")
{verdict}
    auto_pay = attempts > 1
    if auto_pay:
{effect}
'''
EFFECT = "        stripe.PaymentIntent.create(amount=invoice.amount, customer=invoice.customer)"


def _app(tmp_path: Path, verdict: str, effect: str = EFFECT):
    return audit_source(tmp_path, {"app.py": APP.format(verdict=verdict, effect=effect)})


@pytest.mark.parametrize("verdict", [
    '    model_approved = "yes" in reply.output_text',
    "    risk = reply.output_text.strip()",
    "    isSafe = reply.output_text == 'safe'",
    '    decision = ami.decide(decision_point="billing.collect", context=[])',
])
def test_an_unread_verdict_is_reported_at_its_assignment(tmp_path: Path, verdict: str) -> None:
    finding = only(_app(tmp_path, verdict), CODE)
    assert finding.location.line == 11
    assert "is never read" in finding.message
    assert "runs on `auto_pay` instead" in finding.message
    assert "`stripe.PaymentIntent.create` (money)" in finding.message


@pytest.mark.parametrize(("verdict", "effect"), [
    # The verdict guards the effect.
    ('    model_approved = "yes" in reply.output_text',
     "        if model_approved:\n            stripe.PaymentIntent.create(amount=1)"),
    # It is passed on (logged, queued, returned): used.
    ('    model_approved = "yes" in reply.output_text',
     EFFECT + "\n    print(model_approved)"),
    ('    model_approved = "yes" in reply.output_text', EFFECT + "\n    return model_approved"),
    # Not named like a verdict.
    ("    summary = reply.output_text", EFFECT),
    # Not from a model or a decision.
    ("    approved = invoice.approved", EFFECT),
    # No effect after it.
    ('    model_approved = "yes" in reply.output_text', "        print('no effect')"),
])
def test_used_or_unrelated_values_are_not_reported(tmp_path: Path, verdict, effect) -> None:
    assert found(_app(tmp_path, verdict, effect), CODE) == []


def test_a_verdict_read_in_a_nested_function_is_used(tmp_path: Path) -> None:
    verdict = ('    model_approved = "yes" in reply.output_text\n'
               "    def later():\n        return model_approved\n    later()")
    assert found(_app(tmp_path, verdict), CODE) == []


def test_an_effect_reached_through_a_helper_names_the_verdicts_function(tmp_path: Path) -> None:
    text = APP.format(verdict='    model_approved = "yes" in reply.output_text',
                      effect="        charge(invoice)")
    text += "\n\ndef charge(invoice):\n" + EFFECT.replace("        ", "    ", 1) + "\n"
    finding = only(audit_source(tmp_path, {"app.py": text}), CODE)
    assert (finding.location.line, finding.symbol) == (11, "app.collect")
