from agents import (Agent, CodeInterpreterTool, HostedMCPTool, ShellTool, WebSearchTool)

# Hosted tools run at OpenAI: no local effect, no local entry.
agent = Agent(
    name="researcher",
    tools=[
        WebSearchTool(),  # EXPECT-NOT: UNGOVERNED-PATH
        CodeInterpreterTool(tool_config={"type": "code_interpreter"}),  # EXPECT-NOT: UNGOVERNED-PATH
        HostedMCPTool(tool_config={"type": "mcp", "server_label": "wiki"}),  # EXPECT-NOT: UNGOVERNED-PATH
        ShellTool(environment={"type": "container_auto"}),  # EXPECT-NOT: UNGOVERNED-PATH
    ],
)
