"""Refund requests: the dispatcher gets whole selected items and runs only auto, active ones."""

import stripe
from memrail import AMIClient
from memrail.atoms import state

ami = AMIClient(workspace="production", project="billing")


def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                  idempotency_key=args["request_id"])
    return {"refund_id": refund.id}


TOOLS = {"refund_payment": refund_payment}


def dispatch(items: list) -> list[dict]:
    results = []
    for item in items:
        if item.policy.get("mode") != "auto" or item.lifecycle_state != "active":
            continue  # missing or unknown policy fails closed
        tool = item.action["tool"]
        results.append(TOOLS[tool["tool_id"]](tool["args"]))  # EXPECT-NOT: EVAL-LEAK
    return results


def handle_refund_request(request) -> list[dict]:
    decision = ami.decide(
        decision_point="billing.refund",
        context=[
            state("refund.request_id", request.id),
            state("refund.amount_cents", request.amount_cents),
        ],
    )
    return dispatch(decision.selected)
