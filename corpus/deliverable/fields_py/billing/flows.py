"""Found: each field of TOPOLOGY_STATE the audit must read from the code.

- `memrail_project`: the client's literal `project="billing"` (and a call's own `project=`);
- a decision point held in a constant (`CHECKOUT_POINT`), imported (`REFUND_POINT`) or read
  as an attribute of its module (`points.AUDIT_POINT`) or of a class (`Points.GIFT`);
- presence with its polarity: after `if request.anonymous: return`, `customer.id` is built
  when `not (request.anonymous)`; inside `if cart.gift:`, `gift.note` is built when the
  condition holds;
- one producer per emit: the event built inside `emit_event(event(...))` is that emit's
  argument, not a second producer.
"""

from datetime import datetime, timezone

from memrail import AMIClient
from memrail.atoms import event, state

from billing import points
from billing.points import REFUND_POINT, Points

client = AMIClient(project="billing")
CHECKOUT_POINT = "billing.checkout"


def refund(request):
    context = [state("refund.request_id", request.id)]
    if request.anonymous:
        return None
    context.append(state("customer.id", request.customer_id))
    decision = client.decide(decision_point=REFUND_POINT, context=context)
    return [item.action["directive"] for item in decision.selected]


def checkout(cart):
    context = [state("cart.id", cart.id)]
    if cart.gift:
        context.append(state("gift.note", cart.note))
    decision = client.decide(decision_point=CHECKOUT_POINT, context=context)
    return [item.action["directive"] for item in decision.selected]


def audit_refund(request):
    decision = client.decide(decision_point=points.AUDIT_POINT, project="ledger",
                             context=[state("refund.request_id", request.id)])
    return [item.action["directive"] for item in decision.selected]


def wrap_gift(cart):
    decision = client.decide(decision_point=Points.GIFT, context=[state("cart.id", cart.id)])
    return [item.action["directive"] for item in decision.selected]


def record_payment(cart):
    client.emit_event(event("customer.paid.order", ts=datetime.now(timezone.utc),
                            attributes={"cart_id": cart.id}), project="billing")


def record_gift(cart):
    client.emit_event(event("customer.paid.order", ts=datetime.now(timezone.utc),
                            attributes={"cart_id": cart.id, "gift": True}), project="billing")
