"""Refund requests: decide, then run the selected tool through the app's own dispatcher,
which runs only what the policy mode lets run (as the SDK executor would)."""

import stripe
from memrail import AMIClient
from memrail.atoms import state

ami = AMIClient(workspace="production", project="billing")


def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                  idempotency_key=args["request_id"])
    return {"refund_id": refund.id}


TOOLS = {"refund_payment": refund_payment}


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
        if item.policy.get("mode") != "auto":
            continue  # advisory and require_human selections are not dispatched here
        if item.action["type"] == "tool_call":
            spec = item.action["tool"]
            results.append(TOOLS[spec["tool_id"]](spec["args"]))  # EXPECT-NOT: EVAL-LEAK
            ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
    return results
