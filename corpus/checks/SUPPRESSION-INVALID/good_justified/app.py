import shutil

from agents import Agent, function_tool


@function_tool
def purge_workspace(path: str) -> str:
    """A justified directive suppresses the finding; the finding stays in the results, marked
    suppressed, which is why the executor line still expects it."""
    # topo: ignore[UNGOVERNED-PATH] -- scratch directory of this session  # EXPECT-NOT: SUPPRESSION-INVALID, SUPPRESSION-UNUSED
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace])
