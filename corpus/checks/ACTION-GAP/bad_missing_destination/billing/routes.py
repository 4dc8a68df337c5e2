"""Where routed refund requests go: the review queues the billing team runs."""

from memrail.tools import ToolRegistry

from billing.queues import enqueue

registry = ToolRegistry()

REVIEW_QUEUES = {
    "manual_review": "billing-manual-review",
    "chargeback_review": "billing-chargebacks",
}


@registry.on_route
async def route_request(destination, metadata):
    queue = REVIEW_QUEUES[destination]
    await enqueue(queue, metadata)
