from agents import Agent, ShellTool

from tools.shell import LocalShell

# Registered again, with approval again.
fast = Agent(name="fast", tools=[ShellTool(executor=LocalShell(), needs_approval=True)])
