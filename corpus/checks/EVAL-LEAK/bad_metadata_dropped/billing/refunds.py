"""Refund requests: an adapter hands the dispatcher the selected actions, and only those."""

import stripe
from memrail import AMIClient
from memrail.atoms import state

ami = AMIClient(workspace="production", project="billing")


def refund_payment(args: dict) -> dict:
    refund = stripe.Refund.create(charge=args["charge_id"], amount=args["amount_cents"],
                                  idempotency_key=args["request_id"])
    return {"refund_id": refund.id}


TOOLS = {"refund_payment": refund_payment}


def dispatch(actions: list[dict]) -> list[dict]:
    results = []
    for action in actions:
        if action["type"] == "tool_call":
            tool = action["tool"]
            results.append(TOOLS[tool["tool_id"]](tool["args"]))  # EXPECT: EVAL-LEAK
    return results


def handle_refund_request(request) -> list[dict]:
    decision = ami.decide(
        decision_point="billing.refund",
        context=[
            state("refund.request_id", request.id),
            state("refund.amount_cents", request.amount_cents),
        ],
    )
    actions = [item.action for item in decision.selected]
    return dispatch(actions)
