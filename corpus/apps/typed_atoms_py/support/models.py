"""The ticket schema the support agent decides on (a pydantic model and a str Enum)."""

from enum import Enum
from typing import Any, Literal, Optional

from pydantic import BaseModel


class Priority(str, Enum):
    LOW = "low"
    HIGH = "high"


class Ticket(BaseModel):
    amount_cents: int
    tier: Literal["gold", "silver"]
    note: Optional[str] = None
    priority: Priority
    extra: Any = None
    code: int | str = 0
