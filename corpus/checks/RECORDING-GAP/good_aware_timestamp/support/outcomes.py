"""Support outcomes recorded as Memrail events, stamped with timezone-aware UTC times."""

import datetime as dt
from datetime import datetime, timezone

from memrail import AMIClient
from memrail.atoms import event

ami = AMIClient(workspace="production", project="support")


def record_email(customer, message) -> None:
    ami.emit_event(event("agent.sent.email", ts=datetime.now(timezone.utc),  # EXPECT-NOT: RECORDING-GAP
                         attributes={"customer_id": customer.id, "message_id": message.id}))


def record_escalation(ticket) -> None:
    escalated_at = dt.datetime.now(tz=dt.timezone.utc)
    ami.emit_event(event("agent.escalated.ticket", ts=escalated_at,  # EXPECT-NOT: RECORDING-GAP
                         attributes={"ticket_id": ticket.id}))


def record_close(ticket) -> None:
    closed = datetime.fromtimestamp(ticket.closed_epoch, tz=timezone.utc)
    ami.emit_event(event("agent.closed.ticket", ts=closed,  # EXPECT-NOT: RECORDING-GAP
                         attributes={"ticket_id": ticket.id}))


def record_import(row) -> None:
    imported = datetime.utcnow().replace(tzinfo=timezone.utc)
    ami.emit_event(event("agent.imported.order", ts=imported,  # EXPECT-NOT: RECORDING-GAP
                         attributes={"order_id": row.id}))
