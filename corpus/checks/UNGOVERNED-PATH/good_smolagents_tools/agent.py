"""The same agent with read-only tools: a SELECT the code writes, and a lookup that only reads."""

import sqlite3

from smolagents import CodeAgent, InferenceClientModel, Tool, tool

DB = sqlite3.connect("shop.db")


@tool
def count_orders(status: str) -> str:
    """Count the orders in a status.

    Args:
        status: the order status.
    """
    return str(DB.execute("SELECT count(*) FROM orders WHERE status = ?", (status,)).fetchone())  # EXPECT-NOT: UNGOVERNED-PATH


class ReadReport(Tool):
    name = "read_report"
    description = "Read a report."
    inputs = {"path": {"type": "string", "description": "where"}}
    output_type = "string"

    def forward(self, path: str) -> str:
        with open(path, encoding="utf-8") as handle:  # EXPECT-NOT: UNGOVERNED-PATH
            return handle.read()


agent = CodeAgent(tools=[count_orders, ReadReport()], model=InferenceClientModel())
answer = agent.run("How many orders are stale?")
