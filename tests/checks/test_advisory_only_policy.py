"""ADVISORY-ONLY-POLICY: prompt rules standing in for enforcement."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.checks._prompts import constraint_in
from topo.audit.model import Severity
from source_repos import audit_source, found, only

CODE = "ADVISORY-ONLY-POLICY"


@pytest.mark.parametrize(("text", "sentence"), [
    ("You are helpful. Never refund more than $200. Be brief.", "Never refund more than $200"),
    ("You are helpful.\nYou must not delete data.\nThanks.", "You must not delete data"),
    ("Refund only if the parcel is lost.", "Refund only if the parcel is lost"),
    ("Refunds over $ 50 need a manager's approval.", "Refunds over $ 50 need a manager's approval"),
    ("Escalate disputes to a human.", "Escalate disputes to a human"),
    ("If you do not have approval, do not refund.", "If you do not have approval, do not refund"),
    ("You cannot delete accounts.", "You cannot delete accounts"),
])
def test_constraint_vocabulary(text: str, sentence: str) -> None:
    assert constraint_in(text) == sentence


@pytest.mark.parametrize("text", ["You are a friendly support agent.", "Answer in French.",
                                  "You only speak English.",
                                  "If you cannot solve the task return NOT_FOUND.",
                                  "When you don't know an ID, say so.",
                                  "- If a task cannot be completed, explain why."])
def test_prompts_without_a_rule(text: str) -> None:
    assert constraint_in(text) is None


APP = """
import json
import stripe
from openai import OpenAI

client = OpenAI()
RULES = "You issue refunds. Never refund more than $200 without a manager's approval."


def handle(message):
    reply = client.chat.completions.create(model="gpt-4o", messages={messages})
    plan = json.loads(reply.choices[0].message.content)
    stripe.Refund.create(charge=plan["charge"], amount=plan["amount"])
"""


@pytest.mark.parametrize("messages", [
    '[{"role": "system", "content": RULES}, {"role": "user", "content": message}]',
    '[{"role": "system", "content": f"{RULES} Today is Monday."}]',
])
def test_a_system_message_rule_over_an_ungoverned_refund(tmp_path: Path, messages: str) -> None:
    findings = audit_source(tmp_path, {"app.py": APP.replace("{messages}", messages)})
    finding = only(findings, CODE)
    assert (finding.location.line, finding.symbol) == (12, "app.handle")
    assert finding.severity is Severity.HIGH
    assert "Never refund more than $200 without a manager's approval" in finding.message
    assert "`client.chat.completions.create`" in finding.message
    assert finding.related[0].line == 10
    assert found(findings, "UNGOVERNED-PATH") == [("app.py", 12)]


def test_no_rule_in_the_prompt_is_only_ungoverned(tmp_path: Path) -> None:
    messages = '[{"role": "system", "content": "You issue refunds."}]'
    findings = audit_source(tmp_path, {"app.py": APP.replace("{messages}", messages)})
    assert found(findings, CODE) == []
    assert found(findings, "UNGOVERNED-PATH") == [("app.py", 12)]


def test_a_rule_a_decision_enforces(tmp_path: Path) -> None:
    source = APP.replace("{messages}", '[{"role": "system", "content": RULES}]').replace(
        "    stripe.Refund.create",
        '    decision = ami.decide(decision_point="support.refund", context=[])\n'
        "    if decision.selected:\n"
        "        stripe.Refund.create").replace(
        "client = OpenAI()", "client = OpenAI()\nami = AMIClient()").replace(
        "import stripe", "import stripe\nfrom memrail import AMIClient")
    findings = audit_source(tmp_path, {"app.py": source})
    assert found(findings, CODE) == [] and found(findings, "UNGOVERNED-PATH") == []


def test_instructions_of_the_agent_that_holds_the_tool(tmp_path: Path) -> None:
    source = """
        import shutil
        from agents import Agent, function_tool


        @function_tool
        def purge(path: str) -> str:
            shutil.rmtree(path)
            return "purged"


        agent = Agent(name="ops", instructions="Do not purge anything under /srv.",
                      tools=[purge])
        """
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert finding.location.line == 7 and "given to `Agent`" in finding.message


def test_a_typescript_system_option_over_a_vercel_tool(tmp_path: Path) -> None:
    source = """
        import { openai } from "@ai-sdk/openai";
        import { generateText, tool } from "ai";
        import Stripe from "stripe";
        import { z } from "zod";

        const stripe = new Stripe("sk");
        const SYSTEM = "You are a billing agent. Never refund more than $100.";

        const refund = tool({
          description: "Refund a charge",
          parameters: z.object({ charge: z.string() }),
          execute: async ({ charge }) => stripe.refunds.create({ charge }),
        });

        export async function answer(prompt: string) {
          const model = openai("gpt-4o");
          return generateText({ model, system: SYSTEM, prompt, tools: { refund } });
        }
        """
    finding = only(audit_source(tmp_path, {"agent.ts": source}), CODE)
    assert finding.location.line == 12
    assert '"Never refund more than $100" given to `generateText`' in finding.message


MEMEX_AGENT = """
    import stripe
    from agents import Agent, Runner, function_tool
    from memexai import MemexAI

    memex = MemexAI(url="http://memex", api_key="k")


    @function_tool
    def issue_refund(charge_id: str) -> str:
        return stripe.Refund.create(charge=charge_id)


    async def chat(session, message):
        user = memex.for_user(session.user_id)
        agent = Agent(name="support", instructions=await user.get_system_prompt("Help."),
                      tools=[issue_refund])
        return await Runner.run(agent, message)
    """
PLAYBOOK = """
    # Escalation

    Be friendly.

    1. Escalate to a human agent if the customer disputes a payment.
    """


@pytest.mark.parametrize("folder", ["memex/shared/ops", "shared"])
def test_a_shared_playbook_in_the_repository_is_the_rule_the_prompt_block_delivers(
        tmp_path: Path, folder: str) -> None:
    findings = audit_source(tmp_path, {"app.py": MEMEX_AGENT,
                                       f"{folder}/support-playbook.md": PLAYBOOK})
    finding = only(findings, CODE)
    assert finding.location.line == 10     # the refund
    assert '"Escalate to a human agent if the customer disputes a payment"' in finding.message
    assert [(r.file, r.line) for r in finding.related] == [(f"{folder}/support-playbook.md", 5)]


def test_without_a_playbook_in_the_repository_the_prompt_block_is_named(tmp_path: Path) -> None:
    findings = audit_source(tmp_path, {"app.py": MEMEX_AGENT,
                                       "docs/sharedstuff/notes.md": PLAYBOOK})
    finding = only(findings, CODE)
    assert "the shared/** policy prose of the MemexAI prompt block" in finding.message
