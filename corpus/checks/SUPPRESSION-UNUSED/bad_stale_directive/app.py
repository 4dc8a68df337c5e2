import shutil

from agents import Agent, function_tool


def clean_cache(directory: str) -> None:
    # topo: ignore[UNGOVERNED-PATH] -- the cache directory comes from configuration  # EXPECT: SUPPRESSION-UNUSED
    shutil.rmtree(directory)


@function_tool
def purge_workspace(path: str) -> str:
    # A directive trailing the statement above belongs to that statement, not to this one.
    print("purging")  # topo: ignore[UNGOVERNED-PATH] -- wrong line for the directive  # EXPECT: SUPPRESSION-UNUSED
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "purged"


agent = Agent(name="ops", tools=[purge_workspace])
