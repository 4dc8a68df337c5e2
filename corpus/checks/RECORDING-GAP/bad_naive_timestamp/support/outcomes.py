"""Support outcomes recorded as Memrail events, stamped with local or zone-less times."""

import datetime as dt
from datetime import datetime

from memrail import AMIClient
from memrail.atoms import event

ami = AMIClient(workspace="production", project="support")


def record_email(customer, message) -> None:
    ami.emit_event(event("agent.sent.email", ts=datetime.now(),  # EXPECT: RECORDING-GAP
                         attributes={"customer_id": customer.id, "message_id": message.id}))


def record_escalation(ticket) -> None:
    escalated_at = dt.datetime.utcnow()
    ami.emit_event(event("agent.escalated.ticket", ts=escalated_at,  # EXPECT: RECORDING-GAP
                         attributes={"ticket_id": ticket.id}))


def record_close(ticket) -> None:
    closed = datetime.fromtimestamp(ticket.closed_epoch).isoformat()
    ami.emit_event(event("agent.closed.ticket", ts=closed,  # EXPECT: RECORDING-GAP
                         attributes={"ticket_id": ticket.id}))
