import subprocess

from agents import Agent, ShellTool


class LocalShell:
    """needs_approval=True: the run pauses for a human before each command."""

    def __call__(self, request):
        for command in request.data.action.commands:
            subprocess.run(command, shell=True)  # EXPECT-NOT: UNGOVERNED-PATH
        return "ok"


agent = Agent(name="ops", tools=[ShellTool(executor=LocalShell(), needs_approval=True)])
