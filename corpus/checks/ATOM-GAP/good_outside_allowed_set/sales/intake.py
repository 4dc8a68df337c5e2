"""Lead intake: only segments in ALLOWED_SEGMENTS are tagged, enterprise among them."""

from memrail import AMIClient
from memrail.atoms import state, tag

client = AMIClient(project="sales")
ALLOWED_SEGMENTS = ("smb", "mid_market", "enterprise")


def intake(lead, segment: str):
    if segment not in ALLOWED_SEGMENTS:
        raise ValueError(f"unknown segment {segment}")
    decision = client.decide(
        decision_point="sales.lead_intake",
        context=[state("lead.id", lead.id), tag("segment", segment)],
    )
    return [item.action["directive"] for item in decision.selected]
