import shutil

from agents import Agent, function_tool


@function_tool
def purge_workspace(path: str) -> str:
    """The model decides when to call this, and with which path."""
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace])
