import subprocess

from agents import Agent, ShellTool, WebSearchTool


class LocalShell:
    """The SDK calls the executor with the commands the model wrote."""

    def __call__(self, request):
        for command in request.data.action.commands:
            subprocess.run(command, shell=True)
        return "ok"

    def describe(self) -> str:
        return "a local shell"


shell_agent = Agent(
    name="ops",
    tools=[
        ShellTool(executor=LocalShell(), name="local_shell"),
        ShellTool(environment={"type": "container_auto"}),   # hosted: no local entry
        WebSearchTool(),
    ],
)
