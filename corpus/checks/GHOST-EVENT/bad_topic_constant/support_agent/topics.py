"""Event topics, named once for the whole app: the email topic is not the one the EMU reads."""

import enum

SENT_EMAIL = "agent.sent.message"


class Topic(str, enum.Enum):
    SENT_EMAIL = "agent.sent.email"
    CLOSED_TICKET = "agent.closed.ticket"
