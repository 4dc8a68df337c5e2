import shutil

from agents import Agent, function_tool


@function_tool
def purge_workspace(path: str) -> str:
    """A formatter split the call over four lines: a directive on its last line covers it."""
    shutil.rmtree(  # EXPECT: UNGOVERNED-PATH
        path,
        ignore_errors=True,
    )  # topo: ignore[UNGOVERNED-PATH] -- scratch directory of this session  # EXPECT-NOT: SUPPRESSION-UNUSED
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace])
