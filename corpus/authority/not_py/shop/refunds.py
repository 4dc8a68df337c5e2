"""Tests that are no authority over the effect: a chat message's role, an existence lookup
(a duplicate guard), a plain amount check, and a role read that guards nothing consequential."""

import os
import smtplib

import stripe
from sqlalchemy.orm import Session

from shop.models import RefundRule


def forward_reply(message: dict, to: str) -> None:
    if message["role"] == "assistant":
        smtplib.SMTP("localhost").sendmail("bot@example.com", [to], message["content"])


def refund_once(session: Session, charge_id: str) -> None:
    existing = session.query(RefundRule).filter_by(active=True).first()
    if not existing:
        stripe.Refund.create(charge=charge_id)


def refund_small(charge_id: str, amount: int) -> None:
    if amount < 1000:
        stripe.Refund.create(charge=charge_id, amount=amount)


def greeting(user) -> str:
    if user.role == "admin":
        return "Hello, admin"
    return "Hello"


def refund_with_key(charge_id: str) -> None:
    """A required setting's presence check: the key is passed on, nothing is switched."""
    api_key = os.getenv("STRIPE_API_KEY")
    if not api_key:
        raise RuntimeError("STRIPE_API_KEY is not set")
    stripe.Refund.create(charge=charge_id, api_key=api_key)
