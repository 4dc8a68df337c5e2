"""Refund requests: decide, then run the selected tool through the app's own dispatcher; a
canary selection runs only for customers in the application's cohort."""

import stripe
from memrail import AMIClient
from memrail.atoms import state

ami = AMIClient(workspace="production", project="billing")


def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                  idempotency_key=args["request_id"])
    return {"refund_id": refund.id}


TOOLS = {"refund_payment": refund_payment}
CANARY_PERCENT = 5


def in_refund_cohort(customer_id: str) -> bool:
    return int(customer_id[-2:], 16) % 100 < CANARY_PERCENT


def handle_refund_request(request) -> list[dict]:
    decision = ami.decide(
        decision_point="billing.refund",
        context=[
            state("refund.request_id", request.id),
            state("refund.amount_cents", request.amount_cents),
        ],
    )
    results = []
    for item in decision.selected:
        if item.lifecycle_state == "canary" and not in_refund_cohort(request.customer_id):
            continue  # the application owns the canary cohort
        if item.action["type"] == "tool_call":
            spec = item.action["tool"]
            results.append(TOOLS[spec["tool_id"]](spec["args"]))  # EXPECT-NOT: EVAL-LEAK
            ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
    return results
