import os

import stripe
from fastapi import FastAPI, Request
from langchain_core.tools import tool
from memexai import MemexAI
from memexai.adapters.langchain import get_langchain_tools

app = FastAPI()
memex = MemexAI(url=os.environ["MEMEX_URL"], api_key=os.environ["MEMEX_API_KEY"])


@tool
def issue_refund(charge_id: str, amount_cents: int) -> str:
    """Refund a charge. Follow shared/ops/support-playbook.md before using."""
    return stripe.Refund.create(charge=charge_id, amount=amount_cents)


@app.post("/chat")
async def chat(request: Request):
    body = await request.json()
    user = memex.for_user(body["userId"], actor="support-assistant")
    tools = get_langchain_tools(user) + [issue_refund]
    system = await user.get_system_prompt("You are a support agent.")
    return {"tools": tools, "system": system}


async def auto_close_if_not_escalated(session, ticket_id: str, charge_id: str):
    # The "escalation event" is a line the MODEL is asked to write by the shared playbook.
    user = memex.for_user(session.user_id, actor="support-assistant")
    found = await user.search(f"escalation logged for {ticket_id}")
    if not found.get("results"):
        stripe.Refund.create(charge=charge_id)
