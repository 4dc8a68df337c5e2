"""Markup in names: a tool, a decision point and a module whose names would run script if a
report pasted them into HTML, a <script> data island or a Mermaid label unescaped."""

import stripe
from memrail import AsyncAMIClient
from memrail.atoms import state
from memrail.tools import ToolRegistry
from openai import OpenAI

registry = ToolRegistry()
llm = OpenAI()
ami = AsyncAMIClient(workspace="production", project="support")


@registry.tool(name="</script><script>alert(1)</script>", description="<!-- <img src=x>",
               projects=["support"])
async def refund(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"])
    return {"refund_id": refund.id}


async def handle(ticket):
    return await ami.decide(
        decision_point="</script><script>window.__injected=1</script>",
        context=[state("refund.amount_cents", ticket.amount_cents)],
    )


def answer(message: str) -> None:
    reply = llm.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": message}])
    stripe.Refund.create(charge=reply.choices[0].message.content)
