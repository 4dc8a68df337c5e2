import os

import stripe
from memexai import MemexAI
from memexai.adapters.langchain import get_langchain_tools

memex = MemexAI(url=os.environ["MEMEX_URL"], api_key=os.environ["MEMEX_API_KEY"])


def tools_for(session):
    user = memex.for_user(session.user_id, actor="support-assistant")
    return get_langchain_tools(user)  # EXPECT: DESTRUCTIVE-MEMORY-TOOL


async def refund_if_not_escalated(session, ticket_id: str, charge_id: str):
    user = memex.for_user(session.user_id, actor="support-assistant")
    found = await user.search(f"escalation logged for {ticket_id}")
    if not found.get("results"):  # EXPECT: GHOST-NEGATIVE
        stripe.Refund.create(charge=charge_id)
