import subprocess

from strands import Agent


def refresh_index(**kwargs):
    """A plain function that no tool registration hands to the model."""
    subprocess.run(["git", "gc"])  # EXPECT-NOT: UNGOVERNED-PATH
    return {"status": "success", "content": []}


agent = Agent(tools=[])
refresh_index()
