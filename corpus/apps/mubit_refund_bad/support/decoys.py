"""Names that collide with Mubit's and must not be classified (other-systems.md §4.1.5)."""
from agno.memory.v2 import Memory

mubit = Memory()            # an Agno instance bound to a variable named `mubit`


def remember(note: str) -> None:     # a local helper, not Mubit
    print(note)


def handoff(task: str) -> str:
    return "approve"


def notes(ticket_id: str):
    mubit.remember(f"seen {ticket_id}")
    mubit.recall(f"seen {ticket_id}")
    remember(f"ticket {ticket_id}")
    return handoff(ticket_id)
