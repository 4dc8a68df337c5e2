"""MODEL-CONSENT: an approval read from a field that the model can write."""

from __future__ import annotations

from pathlib import Path

import pytest

from source_repos import audit_source, found, only

CODE = "MODEL-CONSENT"
APP = '''
import sqlite3
import stripe
from agents import Agent, function_tool

db = sqlite3.connect("app.db")


@function_tool{decorator}
def mark(request_id: str) -> str:
{write}
    return "ok"


agent = Agent(name="a", tools=[mark])


def payout(request):
    if request.{field}:
        stripe.Refund.create(charge=request.charge_id)
'''


def _app(tmp_path: Path, write: str, field: str = "approved", decorator: str = ""):
    return audit_source(tmp_path, {"app.py": APP.format(write=write, field=field,
                                                        decorator=decorator)})


def _test_line(write: str) -> int:
    """The line of `if request.approved:` in the written app (after dedent and lstrip)."""
    text = APP.format(write=write, field="approved", decorator="").lstrip("\n")
    return next(n for n, line in enumerate(text.splitlines(), 1) if "if request." in line)


@pytest.mark.parametrize("write", [
    "    row = load(request_id)\n    row.approved = True",
    '    row = load(request_id)\n    row["approved"] = 1',
    "    db.execute(\"UPDATE requests SET approved = 1 WHERE id = ?\", (request_id,))",
    "    db.table('requests').update({'approved': True})",
    "    save(request_id, approved=True)",
    # A repository function the tool calls writes it.
    "    approve(request_id)\n\n\ndef approve(request_id):\n    row = load(request_id)\n"
    "    row.approved = True",
])
def test_a_field_a_model_tool_writes_is_no_approval(tmp_path: Path, write: str) -> None:
    findings = _app(tmp_path, write)
    finding = only(findings, CODE)
    assert finding.location.line == _test_line(write)
    assert "which tool `mark` writes" in finding.message
    assert "`stripe.Refund.create` (money)" in finding.message


@pytest.mark.parametrize(("write", "field", "decorator"), [
    ("    row = load(request_id)\n    row.approved = False", "approved", ""),
    ("    save(request_id, approved=None)", "approved", ""),
    ("    row = load(request_id)\n    row.approved = True", "paid", ""),     # another field
    ("    row = load(request_id)\n    row.note = 'approved'", "approved", ""),
    # A human approves each call of the tool.
    ("    row = load(request_id)\n    row.approved = True", "approved",
     "(needs_approval=True)"),
    # A plain local name is no record field.
    ("    approved = True\n    print(approved)", "approved", ""),
    ("    db.execute(\"SELECT approved FROM requests\")", "approved", ""),
])
def test_other_writes_are_not_model_consent(tmp_path: Path, write, field, decorator) -> None:
    assert found(_app(tmp_path, write, field, decorator), CODE) == []


def test_a_typescript_reader_is_not_matched_with_a_python_writer(tmp_path: Path) -> None:
    reader = '''
import Stripe from 'stripe';
const stripe = new Stripe('k');
export async function payout(request: any) {
  if (request.approved) {
    await stripe.refunds.create({ charge: request.chargeId });
  }
}
'''
    files = {"app.py": APP.format(write="    row = load(request_id)\n    row.approved = True",
                                  field="approved", decorator=""),
             "payout.ts": reader}
    line = _test_line("    row = load(request_id)\n    row.approved = True")
    assert found(audit_source(tmp_path, files), CODE) == [("app.py", line)]


def test_a_state_key_written_from_model_output(tmp_path: Path) -> None:
    text = '''
import stripe
from openai import OpenAI

client = OpenAI()


def review(state):
    reply = client.responses.create(model="gpt-4o", input=state["message"])
    state["approved"] = "yes" in reply.output_text
    return state


def pay(state):
    if state["approved"]:
        stripe.Refund.create(charge=state["charge_id"])
'''
    finding = only(audit_source(tmp_path, {"app.py": text}), CODE)
    assert finding.location.line == 14
    assert "model output in `app.review`" in finding.message


def test_a_state_update_handed_to_a_call_from_model_output(tmp_path: Path) -> None:
    text = '''
import stripe
from langgraph.types import Command
from openai import OpenAI

client = OpenAI()


def review(state):
    reply = client.responses.create(model="gpt-4o", input=state["message"])
    return Command(goto="pay", update={"approved": "yes" in reply.output_text})


def pay(state):
    if state["approved"]:
        stripe.Refund.create(charge=state["charge_id"])
'''
    finding = only(audit_source(tmp_path, {"app.py": text}), CODE)
    assert finding.location.line == 14
    assert "model output in `app.review`" in finding.message


def test_a_logged_model_verdict_writes_nothing(tmp_path: Path) -> None:
    text = '''
import logging
import stripe
from openai import OpenAI

client = OpenAI()
log = logging.getLogger(__name__)


def review(request):
    reply = client.responses.create(model="gpt-4o", input="approve?")
    log.info("review", extra={"approved": "yes" in reply.output_text})


def pay(request):
    if request.approved:
        stripe.Refund.create(charge=request.charge_id)
'''
    assert found(audit_source(tmp_path, {"app.py": text}), CODE) == []
