import shutil

from agents import Agent, function_tool


@function_tool(needs_approval=True)
def purge_workspace(path: str) -> str:
    """A human approves each call before it runs."""
    shutil.rmtree(path)  # EXPECT-NOT: UNGOVERNED-PATH
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace])
