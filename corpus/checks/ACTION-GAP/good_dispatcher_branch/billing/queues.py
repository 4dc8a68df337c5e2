"""Review queues."""

QUEUES: dict[str, list[str]] = {"fraud_review": []}


async def enqueue(destination, request_id):
    QUEUES[destination].append(request_id)
