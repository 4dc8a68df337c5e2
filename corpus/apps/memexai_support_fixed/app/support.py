import os

import stripe
from memexai import MemexAI

memex = MemexAI(url=os.environ["MEMEX_URL"], api_key=os.environ["MEMEX_API_KEY"])


async def escalate(session, ticket_id: str, reason: str):
    memory = memex.for_user(session.user.id, actor="escalation-service")
    await memory.patch_file("user/support-log.md", "append_lines", after_heading="# Escalations",
                            lines=[f"- {ticket_id}: escalated ({reason})"],
                            reason="deterministic escalation record")


async def auto_close_if_not_escalated(session, ticket_id: str, charge_id: str):
    memory = memex.for_user(session.user.id, actor="support-assistant")
    log = await memory.read_file("user/support-log.md")
    if ticket_id not in log["content"]:
        stripe.Refund.create(charge=charge_id)
