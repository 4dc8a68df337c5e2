"""Business rules (that quietly delegate to the model's confidence)."""

AUTO_REFUND_CONFIDENCE = 0.9


def should_refund(assessment: dict) -> bool:
    return assessment["refund_confidence"] >= AUTO_REFUND_CONFIDENCE
