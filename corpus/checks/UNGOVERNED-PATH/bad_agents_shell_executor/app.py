import subprocess

from agents import Agent, ShellTool


class LocalShell:
    """The SDK calls the executor with the commands the model wrote."""

    def __call__(self, request):
        for command in request.data.action.commands:
            subprocess.run(command, shell=True)  # EXPECT: UNGOVERNED-PATH
        return "ok"


agent = Agent(name="ops", tools=[ShellTool(executor=LocalShell())])
