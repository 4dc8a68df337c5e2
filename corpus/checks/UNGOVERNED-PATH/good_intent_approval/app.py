from agents import Agent, function_tool

ORDERS: dict[str, dict[str, str]] = {}


@function_tool(needs_approval=True)
def cancel_order(order_id: str) -> dict[str, str]:  # EXPECT-NOT: UNGOVERNED-PATH
    """A human approves each call before the in-memory order is cancelled."""
    ORDERS[order_id]["status"] = "cancelled"
    return {"status": "cancelled"}


agent = Agent(name="orders", tools=[cancel_order])
