import json
import shutil

from agents import Agent, FunctionTool


async def run_purge(ctx, arguments: str) -> str:
    """FunctionTool hands the model's JSON arguments to its callback."""
    shutil.rmtree(json.loads(arguments)["path"])  # EXPECT-NOT: UNGOVERNED-PATH
    return "purged"


purge = FunctionTool(name="purge_workspace", description="Delete a workspace",
                     params_json_schema={"type": "object"}, on_invoke_tool=run_purge, needs_approval=True)
agent = Agent(name="ops", tools=[purge])
