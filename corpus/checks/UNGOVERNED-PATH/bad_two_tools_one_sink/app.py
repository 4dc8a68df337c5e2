import shutil

from agents import Agent, function_tool


def _wipe(path: str) -> None:
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH


@function_tool
def clear_cache(path: str) -> str:  # EXPECT-NOT: UNGOVERNED-PATH
    """One of two tools the model can reach the same deletion through: one finding, at it."""
    _wipe(path)
    return "cleared"


@function_tool
def reset_workspace(path: str) -> str:  # EXPECT-NOT: UNGOVERNED-PATH
    _wipe(path)
    return "reset"


agent = Agent(name="ops", tools=[clear_cache, reset_workspace])
