AUTO_REFUND = 0.9


def should_refund(assessment: dict) -> bool:
    return assessment["confidence"] >= AUTO_REFUND  # EXPECT-NOT: HIDDEN-AUTHORITY
