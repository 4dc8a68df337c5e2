"""smolagents: the model (a CodeAgent writes Python that calls the tools) picks the tool and its
arguments. Found auditing huggingface/smolagents' examples, where no tool was known."""

import sqlite3

from smolagents import CodeAgent, InferenceClientModel, Tool, tool

DB = sqlite3.connect("shop.db")


@tool
def run_sql(query: str) -> str:
    """Run a SQL statement on the shop database.

    Args:
        query: the statement to run.
    """
    return str(DB.execute(query).fetchall())  # EXPECT: UNGOVERNED-PATH


class SaveReport(Tool):
    name = "save_report"
    description = "Save a report to disk."
    inputs = {"path": {"type": "string", "description": "where"},
              "text": {"type": "string", "description": "what"}}
    output_type = "string"

    def forward(self, path: str, text: str) -> str:
        with open(path, "w", encoding="utf-8") as handle:  # EXPECT: UNGOVERNED-PATH
            handle.write(text)
        return "saved"


agent = CodeAgent(tools=[run_sql, SaveReport()], model=InferenceClientModel())
answer = agent.run("Close the stale orders and write a report.")
