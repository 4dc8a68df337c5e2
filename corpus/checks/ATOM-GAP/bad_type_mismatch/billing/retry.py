"""The nightly job that retries failed charges asks for customer-facing guidance first."""

from memrail import AMIClient
from memrail.atoms import state

client = AMIClient(project="billing")


def retry_guidance(invoice):
    decision = client.decide(  # EXPECT: ATOM-GAP
        decision_point="billing.charge_retry",
        context=[state("invoice.id", invoice.id), state("request.is_retry", True)],
    )
    return [item.action["directive"] for item in decision.selected]
