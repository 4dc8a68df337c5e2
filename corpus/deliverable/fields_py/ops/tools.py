"""consequential_paths: two model-invoked tools reach the one rmtree (two paths); the nightly
job reaches it too, but no model output shapes it (not a path)."""

import shutil

from agents import Agent, function_tool


def wipe(path: str) -> None:
    shutil.rmtree(path)


@function_tool
def reset_workspace() -> str:
    """The model decides when; the path is fixed."""
    wipe("/srv/workspace")
    return "reset"


@function_tool
def reset_cache() -> str:
    wipe("/srv/cache")
    return "reset"


def nightly() -> None:
    wipe("/srv/tmp")


agent = Agent(name="ops", tools=[reset_workspace, reset_cache])
