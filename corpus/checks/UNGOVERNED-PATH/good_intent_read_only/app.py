from dataclasses import dataclass

from agents import Agent, RunContextWrapper, function_tool


@dataclass
class ShopContext:
    last_order: str | None = None


@function_tool
def get_order_status(ctx: RunContextWrapper[ShopContext], order_id: str) -> str:  # EXPECT-NOT: UNGOVERNED-PATH
    """A read: remembering which order was looked up does not make it a write."""
    ctx.context.last_order = order_id
    return f"Order {order_id} was cancelled yesterday"


@function_tool
def save_note(note: str) -> str:  # EXPECT-NOT: UNGOVERNED-PATH
    """Only echoes its argument: nothing is saved anywhere."""
    return f"Note: {note}"


@function_tool
def update_plan(step: int, status: str) -> dict:  # EXPECT-NOT: UNGOVERNED-PATH
    """Builds a UI event from its arguments; the list it fills is its own."""
    changes = []
    changes.append({"op": "replace", "path": f"/steps/{step}/status", "value": status})
    return {"type": "STATE_DELTA", "delta": changes}


agent = Agent(name="shop", tools=[get_order_status, save_note, update_plan])
