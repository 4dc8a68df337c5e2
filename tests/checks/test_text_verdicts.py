"""Verdicts parsed from a model's free text (HIDDEN-AUTHORITY) and guardrail verdicts returned
as data (AGENT-VERDICT): where they are reported, and what is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.model import EdgeKind
from topo.audit.pipeline import AuditRequest, run_audit
from source_repos import audit_source, found, only

PY = """
import re

import stripe
from openai import OpenAI

client = OpenAI()


def review(ticket):
    reply = client.chat.completions.create(model="gpt-4o", messages=[])
    answer = reply.choices[0].message.content
    {derive}
    if {test}:
        stripe.Refund.create(charge=ticket.charge_id)
"""


@pytest.mark.parametrize("derive, test", [
    ('approved = bool(re.search(r"APPROVE", answer))', "approved"),
    ('approved = re.match(r"APPROVE", answer) is not None', "approved"),
    ('approved = answer.strip().startswith("APPROVE")', "approved"),
    ('approved = "APPROVE" in answer', "approved"),
    ('refused = any(k in answer.lower() for k in ("deny", "reject"))', "not refused"),
    # A method of a parenthesised expression reads what the expression reads.
    ('approved = (answer or "").lower().startswith("approve")', "approved"),
])
def test_a_parsed_verdict_is_reported_where_it_is_derived(tmp_path: Path, derive: str,
                                                           test: str) -> None:
    source = PY.replace("{derive}", derive).replace("{test}", test)
    finding = only(audit_source(tmp_path, {"app.py": source}), "HIDDEN-AUTHORITY")
    # Line 12 derives the verdict; the `if` (13) that only asks it is a related location.
    assert (finding.location.line, finding.symbol) == (12, "app.review")
    assert [(r.line, r.column) for r in finding.related] == [(14, 9), (13, 8)]


def test_a_test_of_the_answer_itself_stays_at_the_if(tmp_path: Path) -> None:
    source = PY.replace("{derive}", "answer = answer.strip()").replace(
        "{test}", 'answer == "APPROVE"')
    assert found(audit_source(tmp_path, {"app.py": source}), "HIDDEN-AUTHORITY") == \
        [("app.py", 13)]


def test_the_same_test_over_the_request_is_no_authority(tmp_path: Path) -> None:
    source = PY.replace("{derive}", 'approved = bool(re.search(r"APPROVE", ticket.text))') \
        .replace("{test}", "approved")
    assert found(audit_source(tmp_path, {"app.py": source}), "HIDDEN-AUTHORITY") == []


TS = """
import OpenAI from 'openai';
import Stripe from 'stripe';

const openai = new OpenAI();
const stripe = new Stripe('sk');
const WORDS = ['deny', 'reject'];

export async function review(ticket: { chargeId: string }) {
  const reply = await openai.chat.completions.create({ model: 'gpt-4o', messages: [] });
  const answer = reply.choices[0].message.content ?? '';
  {derive}
  if ({test}) {
    await stripe.refunds.create({ charge: ticket.chargeId });
  }
}
"""


@pytest.mark.parametrize("derive, test", [
    ("const approved = /APPROVE/.test(answer);", "approved"),
    ("const approved = answer.includes('APPROVE');", "approved"),
    ("const refused = WORDS.some((w) => answer.toLowerCase().includes(w));", "!refused"),
    ("const approved = Boolean(answer.match(/APPROVE/));", "approved"),
    ("const approved = (reply.choices[0].message.content || '').includes('OK');", "approved"),
])
def test_a_parsed_verdict_in_typescript(tmp_path: Path, derive: str, test: str) -> None:
    source = TS.replace("{derive}", derive).replace("{test}", test)
    finding = only(audit_source(tmp_path, {"app.ts": source}), "HIDDEN-AUTHORITY")
    assert finding.location.line == 11
    assert [r.line for r in finding.related] == [13, 12]


TS_GUARD = """
import { Agent, run } from '@openai/agents';

const checker = new Agent({ name: 'checker', instructions: 'Is it safe?' });

export const agent = new Agent({
  name: 'support',
  inputGuardrails: [
    {
      name: 'safety',
      execute: async ({ input }) => {
        const result = await run(checker, input);
        return {
          outputInfo: result.finalOutput,
          tripwireTriggered: {verdict},
        };
      },
    },
  ],
});
"""


def test_a_typescript_guardrail_verdict_is_reported_at_its_key(tmp_path: Path) -> None:
    source = TS_GUARD.replace("{verdict}", "!result.finalOutput?.isSafe")
    finding = only(audit_source(tmp_path, {"guard.ts": source}), "AGENT-VERDICT")
    assert (finding.location.line, finding.severity.value) == (14, "medium")
    assert finding.snippet == "!result.finalOutput?.isSafe"
    assert finding.symbol == "guard.agent.inputGuardrails.execute"


def test_a_typescript_guardrail_rule_is_no_model_verdict(tmp_path: Path) -> None:
    source = TS_GUARD.replace("{verdict}", "String(input).includes('refund')")
    assert found(audit_source(tmp_path, {"guard.ts": source}), "AGENT-VERDICT") == []


HELPER = """
import re

import stripe
from openai import OpenAI

client = OpenAI()


def is_refusal(text: str) -> bool:
    return any(word in text.lower() for word in ("deny", "reject"))


def review(ticket):
    reply = client.chat.completions.create(model="gpt-4o", messages=[])
    if is_refusal(reply.choices[0].message.content):
        return
    stripe.Refund.create(charge=ticket.charge_id)


def screen(ticket):
    if is_refusal(ticket.text):
        return
    stripe.Refund.create(charge=ticket.charge_id)
"""


def test_a_predicate_that_parses_the_verdict_is_reported_at_its_return(tmp_path: Path) -> None:
    findings = audit_source(tmp_path, {"app.py": HELPER})
    # Once, inside the helper; the request-only caller (`screen`) adds nothing.
    finding = only(findings, "HIDDEN-AUTHORITY")
    assert (finding.location.line, finding.symbol) == (10, "app.is_refusal")
    assert [r.line for r in finding.related] == [17]


def test_the_deriving_test_is_an_authority_edge_of_the_effect(tmp_path: Path) -> None:
    source = PY.replace("{derive}", 'approved = bool(re.search(r"APPROVE", answer))') \
        .replace("{test}", "approved")
    audit_source(tmp_path, {"app.py": source})
    result = run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None))
    gates = {edge.source for edge in result.facts.edges if edge.kind is EdgeKind.AUTHORITY}
    assert gates == {"model_branch:app.py:12:5", "model_branch:app.py:13:8"}
