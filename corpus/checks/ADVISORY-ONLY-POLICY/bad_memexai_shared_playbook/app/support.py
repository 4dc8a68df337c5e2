"""Seed 003, Shared Memory as Behavior Guide: the playbook in `shared/ops/` is the only rule over
the refund, and it reaches the model as prompt text (X18)."""
import os

import stripe
from agents import Agent, Runner, function_tool
from memexai import MemexAI

memex = MemexAI(url=os.environ["MEMEX_URL"], api_key=os.environ["MEMEX_API_KEY"])


@function_tool
def issue_refund(charge_id: str, amount_cents: int) -> str:
    """Refund a charge. Follow shared/ops/support-playbook.md before using."""
    return stripe.Refund.create(charge=charge_id, amount=amount_cents)  # EXPECT: ADVISORY-ONLY-POLICY, UNGOVERNED-PATH


async def chat(session, message: str) -> str:
    user = memex.for_user(session.user_id, actor="support-assistant")
    system = await user.get_system_prompt("You are a support agent.")
    agent = Agent(name="support", instructions=system, tools=[issue_refund])
    result = await Runner.run(agent, message)
    return result.final_output
