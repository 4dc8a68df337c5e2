import shutil

from pydantic_ai import Agent, Tool


def purge_workspace(path: str) -> str:
    shutil.rmtree(path)  # EXPECT-NOT: UNGOVERNED-PATH
    return "purged"


agent = Agent("openai:gpt-4o", tools=[Tool(purge_workspace, requires_approval=True)])
