import subprocess

from agents import Agent, ShellTool


class LocalShell:
    def __call__(self, request):
        for command in request.data.action.commands:
            subprocess.run(command, shell=True)  # EXPECT: UNGOVERNED-PATH
        return "ok"


# Approved here...
careful = Agent(name="careful", tools=[ShellTool(executor=LocalShell(), needs_approval=True)])
