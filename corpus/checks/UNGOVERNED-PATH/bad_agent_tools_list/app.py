import shutil

from langgraph.prebuilt import create_react_agent
from pydantic_ai import Agent


def purge_workspace(path: str) -> str:
    """Listed as a tool: the agent hands it to the model, named after the function."""
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "purged"


def drop_cache(path: str) -> str:
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "dropped"


agent = Agent("openai:gpt-4o", tools=[purge_workspace])
graph = create_react_agent("openai:gpt-4o", [drop_cache])
