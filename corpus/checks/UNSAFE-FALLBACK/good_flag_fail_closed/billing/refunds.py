"""Refunds a support ticket when Memrail selects it; a Memrail outage refunds nothing."""

import logging
from datetime import datetime, timezone

import stripe
from memrail import AMIClient
from memrail.atoms import event, state

log = logging.getLogger(__name__)
ami = AMIClient(workspace="production", project="billing")


def refund_ticket(ticket, amount_cents: int) -> str:
    allowed = False  # EXPECT-NOT: UNSAFE-FALLBACK
    try:
        decision = ami.decide(decision_point="billing.refund",
                              context=[state("refund.ticket_id", ticket.id),
                                       state("refund.amount_cents", amount_cents)])
        allowed = bool(decision.selected)
    except Exception:
        log.warning("memrail unavailable, holding the refund")
    if allowed:
        stripe.Refund.create(charge=ticket.charge_id, amount=amount_cents)
        ami.emit_event(event("billing.issued.refund", ts=datetime.now(timezone.utc),
                             attributes={"ticket_id": ticket.id}))
        return "refunded"
    return "held"


def refund_order(order, amount_cents: int) -> str:
    approved = True  # EXPECT-NOT: UNSAFE-FALLBACK
    try:
        decision = ami.decide(decision_point="billing.refund",
                              context=[state("refund.ticket_id", order.ticket_id),
                                       state("refund.amount_cents", amount_cents)])
        approved = bool(decision.selected)
    except Exception:
        log.warning("memrail unavailable")
        approved = False
    if not approved:
        return "held"
    stripe.Refund.create(charge=order.charge_id, amount=amount_cents)
    ami.emit_event(event("billing.issued.refund", ts=datetime.now(timezone.utc),
                         attributes={"ticket_id": order.ticket_id}))
    return "refunded"


def may_credit(account_id: str, amount_cents: int) -> bool:
    try:
        decision = ami.decide(decision_point="billing.credit",
                              context=[state("credit.account_id", account_id),
                                       state("credit.amount_cents", amount_cents)])
        return len(decision.selected) > 0
    except TimeoutError:
        log.warning("memrail timed out; no credit")
        return False  # EXPECT-NOT: UNSAFE-FALLBACK


def credit_account(account_id: str, amount_cents: int) -> None:
    ok = True
    try:
        ok = may_credit(account_id, amount_cents)
    except Exception:
        raise
    if not ok:
        return
    stripe.Customer.create_balance_transaction(account_id, amount=-amount_cents, currency="usd")
    ami.emit_event(event("billing.issued.credit", ts=datetime.now(timezone.utc),
                         attributes={"account_id": account_id}))
