import shutil

from pydantic_ai import Agent


def purge_workspace(path: str) -> str:
    """Not in the agent's tools: the program calls it with its own path."""
    shutil.rmtree(path)  # EXPECT-NOT: UNGOVERNED-PATH
    return "purged"


def today() -> str:
    return "2024-01-01"


agent = Agent("openai:gpt-4o", tools=[today])
purge_workspace("/tmp/cache")
