from agents import Agent
from agents.extensions.experimental.codex import codex_tool

agent = Agent(
    name="engineer",
    tools=[codex_tool(sandbox_mode="workspace-write")],  # EXPECT: UNGOVERNED-PATH
)
