"""Event topics, named once for the whole app."""

import enum

SENT_EMAIL = "agent.sent.email"


class Topic(str, enum.Enum):
    SENT_EMAIL = "agent.sent.email"
    CLOSED_TICKET = "agent.closed.ticket"
