"""Refund policy written in code: configuration, flags, roles, tiers and a database rule decide
which refunds happen. None of it is a model's authority."""

import os

import ldclient
import stripe
from django.conf import settings
from sqlalchemy.orm import Session
from statsig import statsig

from shop.models import RefundRule

AUTO_APPROVE = os.getenv("AUTO_APPROVE_REFUNDS") == "true"


def refund_by_setting(charge_id: str, amount: int) -> None:
    if settings.AUTO_REFUND:
        stripe.Refund.create(charge=charge_id, amount=amount)


def refund_by_env(charge_id: str, amount: int) -> None:
    if AUTO_APPROVE:
        stripe.Refund.create(charge=charge_id, amount=amount)


def refund_for_admins(user, charge_id: str) -> None:
    if user.role == "admin":
        stripe.Refund.create(charge=charge_id)


def refund_for_gold(customer, charge_id: str) -> None:
    if customer.tier in ("gold", "platinum"):
        stripe.Refund.create(charge=charge_id)


def refund_for_staff(request, charge_id: str) -> None:
    if not request.user.is_superuser:
        raise PermissionError("staff only")
    stripe.Refund.create(charge=charge_id)


def refund_within_rule(session: Session, charge_id: str, amount: int) -> None:
    rule = session.query(RefundRule).filter_by(active=True).first()
    if amount <= rule.max_auto_refund_cents:
        stripe.Refund.create(charge=charge_id, amount=amount)


def refund_by_flag(context, charge_id: str) -> None:
    if ldclient.get().variation("auto-refunds", context, False):
        stripe.Refund.create(charge=charge_id)


def refund_by_experiment(user, charge_id: str) -> None:
    if statsig.check_gate(user, "instant_refunds"):
        stripe.Refund.create(charge=charge_id)


def refund_with_permission(request, charge_id: str) -> None:
    if request.user.has_perm("shop.issue_refund"):
        stripe.Refund.create(charge=charge_id)


def _issue(charge_id: str) -> None:
    stripe.Refund.create(charge=charge_id)


def refund_through_helper(charge_id: str) -> None:
    """The switch guards the call into the helper that moves the money."""
    if settings.HELPER_REFUNDS_ENABLED:
        _issue(charge_id)
