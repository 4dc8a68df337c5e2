"""A Strands agent is run by calling it (`agent("…")`); its answer decides the refund. Found
auditing strands-agents/samples, where calling the agent read as building another one."""

import stripe
from strands import Agent

agent = Agent(system_prompt="Answer APPROVE or DENY for the refund request.")


def review(ticket) -> None:
    verdict = agent(f"Refund request: {ticket.text}")
    if "APPROVE" in str(verdict):  # EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH
