"""The approval queue: a human reviewer signs off on one refund request."""

APPROVED: dict[str, str] = {}


def approved_by_reviewer(request_id: str) -> bool:
    return request_id in APPROVED
