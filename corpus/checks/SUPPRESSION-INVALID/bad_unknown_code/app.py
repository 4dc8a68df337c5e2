import shutil

from agents import Agent, function_tool


@function_tool
def purge_workspace(path: str) -> str:
    """A misspelt code is an unknown code: the directive suppresses nothing."""
    # topo: ignore[UNGOVERNED-PATHS] -- scratch directory of this session  # EXPECT: SUPPRESSION-INVALID
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "purged"


@function_tool
def purge_cache(path: str) -> str:
    """A blanket ignore (no code list) is not a directive topo accepts."""
    shutil.rmtree(path)  # topo: ignore -- whole line  # EXPECT: SUPPRESSION-INVALID, UNGOVERNED-PATH
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace, purge_cache])
