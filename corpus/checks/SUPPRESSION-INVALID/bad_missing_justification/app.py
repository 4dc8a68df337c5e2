import shutil

from agents import Agent, function_tool


@function_tool
def purge_workspace(path: str) -> str:
    """A directive without a justification suppresses nothing: both findings are reported."""
    # topo: ignore[UNGOVERNED-PATH]  # EXPECT: SUPPRESSION-INVALID
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace])
