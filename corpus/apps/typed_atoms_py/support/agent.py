"""Atoms whose values are typed by annotations, schema fields and validators, not literals."""

from typing import Literal

from memrail import AMIClient
from memrail.atoms import state, tag

from support.models import Priority, Ticket

ami = AMIClient(project="support")
INTENTS = ("refund", "question")


def handle(ticket: Ticket, amount: int, prio: Priority, channel: Literal["email", "chat"], raw,
           intent: str):
    count = int(raw)
    if intent not in INTENTS:
        raise ValueError(intent)
    return ami.decide(decision_point="support.refund", context=[
        state("refund.amount_cents", ticket.amount_cents),
        state("refund.requested_cents", amount),
        state("refund.count", count),
        state("customer.tier", ticket.tier),
        state("ticket.note", ticket.note),
        state("ticket.label", raw.strip()),
        state("ticket.extra", ticket.extra),
        state("ticket.code", ticket.code),
        state("ticket.raw", raw),
        tag("priority", prio),
        tag("channel", channel),
        tag("intent", intent),
    ])


def escalate(payload: dict):
    ticket = Ticket(**payload)
    return ami.decide(decision_point="support.escalate", context=[
        state("refund.amount_cents", ticket.amount_cents),
        tag("priority", ticket.priority),
    ])
